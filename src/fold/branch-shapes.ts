import { depthIn } from "../tree/depth-memo.js";

/** Where one leaf's branch stands in the tree: what `replay` prints besides its state. */
export interface BranchShape {
  leafId: string;
  depth: number;
  /** Where the branch leaves the active branch; null for the active branch itself (or when there is none). */
  forkFromId: string | null;
}

/**
 * The leaves of a tree given as parent links in file order (a parent always before its child, as a `ReadingFold`
 * that matches itself took them), with their depth and where each forks from the active branch: what a
 * `SessionTree` of the same entries says (`leaves`, `depth`, `commonAncestor` with the active leaf, which is the
 * last entry). In a file written in order nearly every entry continues the one before it, so only the other links
 * are kept in a set, and only the leaves' paths are climbed.
 */
export function branchShapes(parents: ReadonlyMap<string, string | null>): {
  activeLeafId: string | null;
  branches: BranchShape[];
} {
  // Entries the next one does not continue, in file order: the leaves, and the parents of later side branches.
  const tips: string[] = [];
  const forked = new Set<string>();
  let previous: string | null = null;
  for (const [id, parent] of parents) {
    if (previous !== null && parent !== previous) tips.push(previous);
    if (parent !== null && parent !== previous) forked.add(parent);
    previous = id;
  }
  if (previous !== null) tips.push(previous);
  const activeLeafId = previous;
  const leaves = tips.filter((id) => !forked.has(id));

  const depths = new Map<string, number>();
  const parentOf = (id: string) => parents.get(id) ?? null;
  const depth = (id: string) => depthIn(id, parentOf, depths);

  // The active branch as a set, and each side entry's fork point once found: leaves sharing a side branch climb it once.
  let onActive: Set<string> | null = null;
  const forkOf = new Map<string, string | null>();
  const forkFrom = (id: string): string | null => {
    if (onActive === null) {
      onActive = new Set<string>();
      for (let cursor = activeLeafId; cursor !== null; cursor = parents.get(cursor) ?? null) onActive.add(cursor);
    }
    const climbed: string[] = [];
    let found: string | null = null;
    for (let cursor: string | null = id; cursor !== null; cursor = parents.get(cursor) ?? null) {
      if (onActive.has(cursor)) {
        found = cursor;
        break;
      }
      const known = forkOf.get(cursor);
      if (known !== undefined) {
        found = known;
        break;
      }
      climbed.push(cursor);
    }
    for (const at of climbed) forkOf.set(at, found);
    return found;
  };

  const branches = leaves.map((leafId) => ({
    leafId,
    depth: depth(leafId),
    forkFromId: leafId === activeLeafId ? null : forkFrom(leafId),
  }));
  return { activeLeafId, branches };
}
