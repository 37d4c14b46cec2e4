import { basename, dirname, join, resolve } from "node:path";
import type { PolicyFs } from "./policy-fs.js";

const MAX_LINKS = 40;

/**
 * The real location a path names, following every symlink. A path that does not exist yet resolves through the real
 * path of its nearest existing ancestor; a dangling symlink resolves to where it points, so a later write through it
 * is judged by its target. Components that cannot be resolved (permissions, loops) stay as spelled: nothing can be
 * opened through them either.
 */
export function realPathOf(path: string, fs: PolicyFs, hops = 0): string {
  try {
    return fs.realpath(path);
  } catch {
    // fall through: resolve what exists and append the rest
  }
  const parent = dirname(path);
  if (parent === path) return path;
  const realParent = realPathOf(parent, fs, hops);
  const here = join(realParent, basename(path));
  if (hops < MAX_LINKS) {
    try {
      if (fs.lstat(here).isSymbolicLink()) return realPathOf(resolve(realParent, fs.readlink(here)), fs, hops + 1);
    } catch {
      // absent or unreadable: keep the spelled name
    }
  }
  return here;
}
