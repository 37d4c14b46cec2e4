import { sep } from "node:path";
import type { Fold } from "./case-fold.js";

function segments(path: string): string[] {
  return path.split(sep).filter((s) => s !== "");
}

/** The segments of `path` below `base` (both absolute and normalised), or undefined when `path` is not under it. */
export function partsBelow(base: string, path: string, fold: Fold): string[] | undefined {
  const b = segments(base);
  const p = segments(path);
  if (p.length < b.length) return undefined;
  for (let i = 0; i < b.length; i++) {
    if (fold(b[i] ?? "") !== fold(p[i] ?? "")) return undefined;
  }
  return p.slice(b.length);
}

export function sameParts(a: readonly string[], b: readonly string[], fold: Fold): boolean {
  return a.length === b.length && a.every((part, i) => fold(part) === fold(b[i] ?? ""));
}

/** Exactly the same names (no folding): the same paths below one base. */
export function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}

/** `join(dir, name)` for a normalised `dir` and one plain name (no separator, not `.` or `..`), without re-normalising. */
export function childPath(dir: string, name: string): string {
  return dir.endsWith(sep) ? `${dir}${name}` : `${dir}${sep}${name}`;
}
