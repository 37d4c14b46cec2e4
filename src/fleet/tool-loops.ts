import type { KitState } from "../../reducers/state.js";
import { toolLoopReport } from "../../reducers/tool-loop.js";

/** A tool-call loop on a branch, as the `tool_loops` table holds it. */
export interface LoopEpisode {
  kind: string;
  entryIds: string[];
  /** The branch ends in this loop. */
  atLeaf: boolean;
}

/**
 * The loop episodes of the branch that ends in `state`. Today only the loop the branch ends in (what `detect` reports);
 * when the fold reports every episode along a branch, this is the one place to read them from.
 */
export function loopEpisodes(state: KitState): LoopEpisode[] {
  const loop = toolLoopReport(state.toolLoop);
  return loop ? [{ kind: loop.kind, entryIds: [...loop.entryIds], atLeaf: true }] : [];
}
