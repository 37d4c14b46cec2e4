import { isAbsolute, relative, sep } from "node:path";

/** A path as shown to the model: relative to the root when inside it, absolute otherwise. */
export function displayPath(root: string, path: string): string {
  const rel = relative(root, path);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return path;
  return rel.split(sep).join("/");
}
