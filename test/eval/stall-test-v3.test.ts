import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { report, tally } from "./eval-table.js";
import { barsLine, byLanguage, detectorSha256, type Scoring } from "./frozen-split.js";
import { scoreSplit } from "./labelled-sets.js";

/**
 * The frozen v3 split (14 languages, written by two writers who wrote no training data): scored once, on the commit
 * `scored.json` names. Its misses are printed only with STALL_EVAL_MISSES=1, never by `npm test`.
 */
const SPLIT = join(import.meta.dirname, "stall-set", "test-v3");
const items = scoreSplit(SPLIT, false) ?? [];
const scored = JSON.parse(readFileSync(join(SPLIT, "scored.json"), "utf8")) as Scoring;

describe("frozen test split v3", () => {
  it("prints its figures by language (misses only with STALL_EVAL_MISSES=1)", () => {
    const text = report(
      `frozen test split v3, scored on ${scored.commit}`,
      items,
      process.env.STALL_EVAL_MISSES === "1",
    );
    console.log(`${text}\n  ${barsLine(items)}`);
    expect(items).toHaveLength(655);
    expect(text).toMatch(/\n {2}all +\d+ +\d+ +\d+ +\d+ /);
  });

  it(`the detector is the one scored on ${scored.commit}`, () => {
    expect(
      detectorSha256(),
      `the detector's files changed after ${scored.commit}: the published figure no longer describes it; score a fresh split`,
    ).toBe(scored.detectorSha256);
  });

  it("its verdicts are the published figure", () => {
    expect(tally(items)).toEqual(scored.tally);
    expect(byLanguage(items)).toEqual(scored.byLanguage);
  });
});
