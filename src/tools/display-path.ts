import { isAbsolute, relative, sep } from "node:path";

/** A path as shown to the model: relative to the root when inside it, absolute otherwise. */
export function displayPath(root: string, path: string): string {
  const rel = relative(root, path);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return path;
  return rel.split(sep).join("/");
}

const MAX_SHOWN = 160;

/** A path bounded for messages: long ones keep their start and end around an ellipsis. */
export function shortPath(path: string, max = MAX_SHOWN): string {
  if (path.length <= max) return path;
  const head = Math.ceil((max - 1) / 2);
  return `${path.slice(0, head)}…${path.slice(path.length - (max - 1 - head))}`;
}
