import { join } from "node:path";
import { toolLoopEpisodes } from "../../reducers/tool-loop.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { loadSession } from "../../src/session.js";
import { LOOP_SET, type LoopLabel } from "./loop-score.js";

/** A labelled episode: its kind, the assistant entries of its first and last call, and whether the path ends in it. */
export interface LabelledEpisode {
  kind: string;
  firstCallEntryId: string;
  lastCallEntryId: string;
  calls: number;
  atLeaf: boolean;
}

export interface EpisodeTally {
  labelled: number;
  detected: number;
  matched: number;
}

/**
 * Episodes along each labelled path against the fold's: a detected episode matches a labelled one of the same kind
 * and place (its entries hold the labelled first and last calls) that does or does not reach the leaf alike.
 */
export function scoreEpisodes(split: string, labels: readonly (LoopLabel & { episodes?: LabelledEpisode[] })[]) {
  const tally: EpisodeTally = { labelled: 0, detected: 0, matched: 0 };
  const misses: string[] = [];
  for (const label of labels) {
    if (!label.episodes) continue;
    const { tree } = loadSession(join(LOOP_SET, split, label.file));
    const detected = toolLoopEpisodes(foldTree(tree).stateAt(label.leaf ?? tree.activeLeafId).toolLoop);
    tally.labelled += label.episodes.length;
    tally.detected += detected.length;
    const unmatched = [...detected];
    for (const e of label.episodes) {
      const at = unmatched.findIndex(
        (d) =>
          d.kind === e.kind &&
          d.atLeaf === e.atLeaf &&
          d.entryIds.includes(e.firstCallEntryId) &&
          d.entryIds.includes(e.lastCallEntryId),
      );
      if (at >= 0) {
        tally.matched++;
        unmatched.splice(at, 1);
      } else
        misses.push(
          `${label.file} ${label.leaf ?? "(active)"}: labelled ${e.kind} ${e.firstCallEntryId}…${e.lastCallEntryId}${e.atLeaf ? " at leaf" : ""}`,
        );
    }
    for (const d of unmatched)
      misses.push(
        `${label.file} ${label.leaf ?? "(active)"}: detected ${d.kind} ${d.entryIds[0]}…${d.entryIds.at(-1)}${d.atLeaf ? " at leaf" : ""}`,
      );
  }
  return { tally, misses };
}
