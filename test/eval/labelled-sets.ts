import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { isStalled } from "../../reducers/recovery.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { loadSession } from "../../src/session.js";
import type { Scored } from "./eval-table.js";

/** One labelled leaf of a split: `labels.jsonl` next to the Pi session files. */
export interface LeafLabel {
  file: string;
  leaf: string | null;
  stall: boolean;
  lang: string;
  category: string;
  note?: string;
}

export function readLabels(dir: string): LeafLabel[] | null {
  const path = join(dir, "labels.jsonl");
  if (!existsSync(path)) return null;
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line, i) => {
      try {
        return JSON.parse(line) as LeafLabel;
      } catch {
        throw new Error(`${path}:${i + 1}: not JSON`);
      }
    });
}

/** The detector's verdict on a labelled leaf (null: the active leaf), through the same fold the kit runs live. */
export function stalledAt(file: string, leaf: string | null): { stalled: boolean; promiseEntryIds: string[] } {
  const { tree } = loadSession(file);
  const state = foldTree(tree).stateAt(leaf ?? tree.activeLeafId);
  return { stalled: isStalled(state.recovery), promiseEntryIds: [...state.recovery.run.promiseEntryIds] };
}

/** Score a split; `withDetail` false keeps the frozen test split's contents out of the output. */
export function scoreSplit(dir: string, withDetail: boolean): Scored[] | null {
  const labels = readLabels(dir);
  if (!labels) return null;
  return labels.map((label) => {
    const verdict = stalledAt(join(dir, label.file), label.leaf);
    const id = `${basename(label.file, ".jsonl")}${label.leaf ? `@${label.leaf}` : ""}`;
    const detail = withDetail
      ? `${label.note ?? ""}${verdict.promiseEntryIds.length ? ` (run: ${verdict.promiseEntryIds.join(", ")})` : ""}`
      : "";
    return {
      id,
      expected: label.stall,
      predicted: verdict.stalled,
      lang: label.lang,
      category: label.category,
      detail,
    };
  });
}

/** Every leaf of every real session in a folder: none of them is expected to be a stall. */
export function scoreRealLeaves(dir: string): Scored[] | null {
  if (!existsSync(dir)) return null;
  const out: Scored[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".jsonl")).sort()) {
    const { tree } = loadSession(join(dir, name));
    const fold = foldTree(tree);
    for (const leaf of tree.leaves()) {
      const state = fold.stateAt(leaf);
      out.push({
        id: `${name}@${leaf}`,
        expected: false,
        predicted: isStalled(state.recovery),
        lang: "real",
        category: "real session leaf",
        detail: `(run: ${state.recovery.run.promiseEntryIds.join(", ")})`,
      });
    }
  }
  return out;
}
