import type { KitState } from "../../reducers/state.js";
import { toolLoopEpisodes } from "../../reducers/tool-loop.js";

/** A tool-call loop on a branch, as the `tool_loops` table holds it. */
export interface LoopEpisode {
  kind: string;
  entryIds: string[];
  /** The branch ends in this loop. */
  atLeaf: boolean;
}

/** Every loop episode of the branch that ends in `state`, escaped or not (the fold's episodes, as `replay` reports). */
export function loopEpisodes(state: KitState): LoopEpisode[] {
  return toolLoopEpisodes(state.toolLoop).map((e) => ({ kind: e.kind, entryIds: [...e.entryIds], atLeaf: e.atLeaf }));
}
