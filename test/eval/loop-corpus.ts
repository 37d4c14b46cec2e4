import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { ToolLoopEpisodeReport } from "../../reducers/tool-loop.js";
import { leafSummary } from "../../src/fold/replay-report.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { loadSession } from "../../src/session.js";

/** The real-session corpus (provenance in its manifest); read in place, never copied into the project. */
export const CORPUS = process.env.REAL_CORPUS_DIR ?? join(import.meta.dirname, "../../../shared/real-corpus/files");

export interface CorpusEpisode extends ToolLoopEpisodeReport {
  file: string;
  /** The loop's first entry: with the file, the episode's name in the verdicts. */
  first: string;
  /** Leaves whose branch ends in it (empty for an escaped episode). */
  leaves: string[];
}

export interface CorpusScan {
  files: number;
  leaves: number;
  toolCalls: number;
  /** Every episode on every branch, each once (branches share their prefix). */
  episodes: CorpusEpisode[];
  /** Every leaf whose branch ends in a loop, as `detect` reports it. */
  leafFlags: { file: string; leaf: string; kind: string; first: string }[];
}

/** Every tool-loop episode in the corpus, read through replay's leaf summary (the one function the fleet reuses). */
export function scanCorpus(dir = CORPUS): CorpusScan | null {
  if (!existsSync(dir)) return null;
  const scan: CorpusScan = { files: 0, leaves: 0, toolCalls: 0, episodes: [], leafFlags: [] };
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()) {
    scan.files++;
    const { tree } = loadSession(join(dir, file));
    for (const entry of tree.byId.values()) {
      if (entry.type === "message" && entry.message.role === "toolResult") scan.toolCalls++;
    }
    const fold = foldTree(tree);
    const byFirst = new Map<string, CorpusEpisode>();
    for (const leaf of tree.leaves()) {
      scan.leaves++;
      const summary = leafSummary(fold, leaf);
      const loop = summary.toolLoop.loop;
      if (loop) scan.leafFlags.push({ file, leaf, kind: loop.kind, first: loop.entryIds[0] as string });
      for (const e of summary.toolLoopEpisodes) {
        const first = e.entryIds[0] as string;
        const key = `${e.kind} ${first}`;
        // An episode a later branch carries further is the same episode: keep its longest form.
        const known = byFirst.get(key);
        const mine: CorpusEpisode = { ...e, file, first, leaves: e.atLeaf ? [leaf] : [] };
        if (!known) byFirst.set(key, mine);
        else {
          const leaves = [...known.leaves, ...mine.leaves];
          byFirst.set(key, { ...(mine.callCount > known.callCount ? mine : known), leaves, atLeaf: leaves.length > 0 });
        }
      }
    }
    scan.episodes.push(...byFirst.values());
  }
  return scan;
}
