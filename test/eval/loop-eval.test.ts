import { describe, expect, it } from "vitest";
import { formatSplit, type LoopOutcome, precision, readLabels, recall, runCase, tally } from "./loop-score.js";

// `EVAL_SPLIT=dev` scores one split only (tuning uses dev; the test split is scored once, never inspected).
const SPLITS = (process.env.EVAL_SPLIT ?? "dev,test").split(",");

describe.each(SPLITS)("tool-loop evaluation set, %s split", (split) => {
  const labels = readLabels(split);
  it.skipIf(labels === null)("reports precision, recall, by kind and every miss", () => {
    const outcomes: LoopOutcome[] = (labels ?? []).map((label) => runCase(split, label));
    console.log(formatSplit(split, outcomes));
    expect(outcomes.length).toBeGreaterThan(0);
    const total = tally(outcomes);
    if (split === "test") {
      expect(precision(total)).toBeGreaterThanOrEqual(0.98);
      expect(recall(total)).toBeGreaterThanOrEqual(0.95);
    }
  });
});
