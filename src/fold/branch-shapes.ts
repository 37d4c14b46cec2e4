import type { TreeLinks } from "../tree/tree-links.js";

/** Where one leaf's branch stands in the tree: what `replay` prints besides its state. */
export interface BranchShape {
  leafId: string;
  depth: number;
  /** Where the branch leaves the active branch; null for the active branch itself (or when there is none). */
  forkFromId: string | null;
}

/** A leaf's depth and where its branch forks from the active one. */
export function branchShape(tree: TreeLinks, leafId: string, activeLeafId: string | null): BranchShape {
  return {
    leafId,
    depth: tree.depth(leafId),
    forkFromId: leafId === activeLeafId || activeLeafId === null ? null : tree.commonAncestor(leafId, activeLeafId),
  };
}

/** Every leaf's shape (or these entries' only), from a tree's links in file order: the active leaf is the last entry. */
export function branchShapesOfLinks(
  tree: TreeLinks,
  only?: readonly string[],
): { activeLeafId: string | null; branches: BranchShape[] } {
  const activeLeafId = tree.last;
  return { activeLeafId, branches: (only ?? tree.leaves()).map((id) => branchShape(tree, id, activeLeafId)) };
}
