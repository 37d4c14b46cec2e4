import { join } from "node:path";
import type { ToolDeps } from "./tool-deps.js";
import { throwIfAborted } from "./tool-types.js";

export interface WalkEntry {
  /** Path as walked (below the canonical start directory). */
  path: string;
  /** Relative to the start, with `/` separators. */
  rel: string;
  name: string;
  kind: "file" | "dir";
  /** Where the entry really is: differs from `path` for an allowed symlink, which is never descended. */
  realPath: string;
}

export interface WalkResult {
  /** Canonical excluded directories, and symlinks leading somewhere denied, that were skipped unopened. */
  pruned: string[];
  /** Stopped early: the visitor asked, or the entry bound was reached. */
  stopped: boolean;
}

/** `false` from the visitor stops the walk. */
export type Visitor = (entry: WalkEntry) => boolean | undefined | Promise<boolean | undefined>;

/**
 * Depth-first, name-sorted walk that prunes before enumeration: a directory holding a marker is never read, a
 * symlink is judged by the policy (denied ones skipped, allowed ones reported but not followed).
 */
export async function walkTree(
  start: string,
  deps: ToolDeps,
  signal: AbortSignal | undefined,
  visit: Visitor,
): Promise<WalkResult> {
  const { policy, ops, limits, skipDirNames } = deps;
  const pruned: string[] = [];
  let visited = 0;
  let stopped = false;

  const emit = async (entry: WalkEntry): Promise<void> => {
    visited++;
    if ((await visit(entry)) === false || visited >= limits.maxWalkEntries) stopped = true;
  };

  const walkDir = async (dir: string, rel: string): Promise<void> => {
    throwIfAborted(signal);
    if (policy.markerIn(dir) !== "none") {
      pruned.push(policy.canonical(dir));
      return;
    }
    let entries: Awaited<ReturnType<typeof ops.readdir>>;
    try {
      entries = await ops.readdir(dir);
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (stopped) return;
      const path = join(dir, entry.name);
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        const decision = policy.decide(path, "search");
        if (!decision.allowed) {
          pruned.push(path);
          continue;
        }
        const target = await ops.stat(decision.path).catch(() => undefined);
        if (target?.isFile() || target?.isDirectory()) {
          const kind = target.isFile() ? "file" : "dir";
          await emit({ path, rel: childRel, name: entry.name, kind, realPath: decision.path });
        }
      } else if (entry.isDirectory()) {
        if (skipDirNames.has(entry.name)) continue;
        if (policy.markerIn(path) !== "none") {
          pruned.push(policy.canonical(path));
          continue;
        }
        await emit({ path, rel: childRel, name: entry.name, kind: "dir", realPath: path });
        if (!stopped) await walkDir(path, childRel);
      } else if (entry.isFile()) {
        await emit({ path, rel: childRel, name: entry.name, kind: "file", realPath: path });
      }
    }
  };

  await walkDir(start, "");
  return { pruned, stopped };
}
