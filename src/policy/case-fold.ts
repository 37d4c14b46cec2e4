import { basename, dirname, join } from "node:path";
import { errorCode, type PolicyFs } from "./policy-fs.js";

export type Fold = (name: string) => string;

export function makeFold(caseInsensitive: boolean): Fold {
  return caseInsensitive ? (name) => name.normalize("NFC").toLowerCase() : (name) => name;
}

function swapCase(name: string): string {
  let out = "";
  for (const ch of name) {
    const lower = ch.toLowerCase();
    out += lower === ch ? ch.toUpperCase() : lower;
  }
  return out;
}

/** true/false when the probe could tell, undefined when this name cannot tell (no cased letters, odd errors). */
function probe(fs: PolicyFs, dir: string, name: string): boolean | undefined {
  const swapped = swapCase(name);
  if (swapped === name) return undefined;
  try {
    const original = fs.lstat(join(dir, name));
    const other = fs.lstat(join(dir, swapped));
    return original.dev === other.dev && original.ino === other.ino;
  } catch (error) {
    return errorCode(error) === "ENOENT" ? false : undefined;
  }
}

/**
 * Whether the file system holding the root ignores case, found by looking up an existing name with its case swapped:
 * first an entry inside the root, then the root's own name. When nothing can tell, folding is the safe answer.
 */
export function detectCaseInsensitive(root: string, fs: PolicyFs): boolean {
  let names: string[] = [];
  try {
    names = fs.readdir(root).slice(0, 64);
  } catch {
    names = [];
  }
  for (const name of names) {
    const answer = probe(fs, root, name);
    if (answer !== undefined) return answer;
  }
  return probe(fs, dirname(root), basename(root)) ?? true;
}

/** On a case-insensitive file system, respells `root/relParts…` with the names stored on disk where they exist. */
export function trueCase(root: string, relParts: readonly string[], fold: Fold, fs: PolicyFs): string {
  let current = root;
  for (const part of relParts) {
    let names: string[] | undefined;
    try {
      names = fs.readdir(current);
    } catch {
      names = undefined;
    }
    const stored = names?.includes(part) ? part : names?.find((n) => fold(n) === fold(part));
    current = join(current, stored ?? part);
  }
  return current;
}
