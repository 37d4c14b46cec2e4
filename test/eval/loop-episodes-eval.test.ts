import { describe, expect, it } from "vitest";
import { scoreEpisodes } from "./loop-episodes.js";
import { readLabels } from "./loop-score.js";

// The episodes along each path (escaped ones included) of the split that labels them; misses with EVAL_MISSES=1.
const SPLIT = "test-v2";

describe("tool-loop episodes along a branch", () => {
  const labels = readLabels(SPLIT);
  it.skipIf(labels === null)(`${SPLIT}: precision and recall of every episode, escaped or not`, () => {
    const { tally, misses } = scoreEpisodes(SPLIT, labels ?? []);
    const precision = tally.matched / tally.detected;
    const recall = tally.matched / tally.labelled;
    console.log(
      `${SPLIT} episodes: ${tally.labelled} labelled, ${tally.detected} detected, ${tally.matched} matched; precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`,
    );
    if (process.env.EVAL_MISSES === "1") console.log(misses.join("\n"));
    expect(tally.labelled).toBeGreaterThan(50);
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });
});
