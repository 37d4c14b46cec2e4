import type { KitState } from "../../reducers/state.js";
import type { SessionTree } from "../tree/session-tree.js";
import { BranchFold } from "./branch-fold.js";
import { kitReducer } from "./kit-reducer.js";

/**
 * The memoised fold over every branch of a session file's tree. Besides the states asked for, it keeps those where
 * branches fork, which is all another branch can start from: the states in between are garbage at once instead of
 * a heap of one state per entry.
 */
export function foldTree(tree: SessionTree): BranchFold {
  return new BranchFold(tree, kitReducer, tree.forks());
}

/** State at every leaf, each entry reduced once for the whole tree. */
export function foldAllLeaves(tree: SessionTree, fold = foldTree(tree)): Map<string, KitState> {
  const out = new Map<string, KitState>();
  const { ids, children } = tree.order;
  fold.eachState(tree.order, (at, state) => {
    if (children[at] === 0) out.set(ids[at] as string, state);
  });
  return out;
}
