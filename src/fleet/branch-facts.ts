import { isStalled } from "../../reducers/recovery.js";
import type { KitState } from "../../reducers/state.js";
import type { TableRows } from "./tables.js";
import { loopEpisodes } from "./tool-loops.js";

/** A branch as the index sees it: where it stands in the tree and its folded state at the leaf. */
export interface BranchShape {
  leafId: string;
  active: boolean;
  depth: number;
  forkFromId: string | null;
}

/** The rows of `branches`, `stalls`, `tool_loops` and `verification` for one branch. */
export function addBranchRows(rows: TableRows, file: string, shape: BranchShape, state: KitState): void {
  const { leafId } = shape;
  const loops = loopEpisodes(state);
  const model = state.session.model;
  rows.branches.push([
    file,
    leafId,
    shape.active,
    shape.depth,
    shape.forkFromId,
    isStalled(state.recovery),
    loops.find((l) => l.atLeaf)?.kind ?? null,
    state.recovery.anchorId,
    state.verification.revision,
    state.verification.incomplete,
    model ? `${model.provider}/${model.modelId}` : null,
  ]);
  if (isStalled(state.recovery)) rows.stalls.push([file, leafId, [...state.recovery.run.promiseEntryIds]]);
  for (const loop of loops) rows.tool_loops.push([file, leafId, loop.kind, loop.entryIds, loop.atLeaf]);
  for (const [check, record] of Object.entries(state.verification.checks)) {
    if (!record) continue;
    rows.verification.push([file, leafId, record.revision, check, record.status, state.verification.roundsThisRequest]);
  }
}
