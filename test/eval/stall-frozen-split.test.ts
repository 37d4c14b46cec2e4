import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { report, tally } from "./eval-table.js";
import { barsLine, byLanguage, detectorSha256, type Scoring } from "./frozen-split.js";
import { scoreSplit } from "./labelled-sets.js";

/**
 * The current frozen split (14 languages and code-switching, written from the behaviour brief by writers who wrote no
 * training data and saw no code): scored once, on the commit its `scored.json` names. Its misses are printed only with
 * STALL_EVAL_MISSES=1, never by `npm test`. `STALL_SCORE_ONCE=1 STALL_SCORE_COMMIT=<8 hex>` records the figure when the
 * split has none yet; it never overwrites one. A split once scored is retired (its `scored.json` stays as the record).
 */
const NAME = "v23";
const LEAVES = 563;
const SPLIT = join(import.meta.dirname, "stall-set", `test-${NAME}`);
const RECORD = join(SPLIT, "scored.json");
const items = scoreSplit(SPLIT, false) ?? [];

if (!existsSync(RECORD) && process.env.STALL_SCORE_ONCE === "1") {
  const commit = process.env.STALL_SCORE_COMMIT ?? "";
  if (!/^[0-9a-f]{8}$/.test(commit)) throw new Error("STALL_SCORE_COMMIT: the commit scored, 8 hex digits");
  const record: Scoring = {
    commit,
    detectorSha256: detectorSha256(),
    tally: tally(items),
    byLanguage: byLanguage(items),
  };
  writeFileSync(RECORD, `${JSON.stringify(record, null, 2)}\n`);
}
const scored = existsSync(RECORD) ? (JSON.parse(readFileSync(RECORD, "utf8")) as Scoring) : null;

describe(`frozen test split ${NAME}`, () => {
  it("prints its figures by language once scored (misses only with STALL_EVAL_MISSES=1)", () => {
    const text = report(
      `frozen test split ${NAME}, scored on ${scored?.commit ?? "(not yet)"}`,
      items,
      process.env.STALL_EVAL_MISSES === "1",
    );
    if (scored !== null) console.log(`${text}\n  ${barsLine(items)}`);
    expect(items).toHaveLength(LEAVES);
    expect(text).toMatch(/\n {2}all +\d+ +\d+ +\d+ +\d+ /);
  });

  it.runIf(scored !== null)(`the detector is the one scored on ${scored?.commit}`, () => {
    expect(
      detectorSha256(),
      `the detector's files changed after ${scored?.commit}: the published figure no longer describes it; score a fresh split`,
    ).toBe(scored?.detectorSha256);
  });

  it.runIf(scored !== null)("its verdicts are the published figure", () => {
    expect(tally(items)).toEqual(scored?.tally);
    expect(byLanguage(items)).toEqual(scored?.byLanguage);
  });
});

/** The split scored last (the highest version with a `scored.json`): the figure the README publishes. */
function latestScored(): { name: string; scoring: Scoring } | null {
  const dir = join(import.meta.dirname, "stall-set");
  const versions = readdirSync(dir)
    .map((name) => ({ name, version: Number(/^test-v(\d+)$/.exec(name)?.[1] ?? Number.NaN) }))
    .filter((s) => Number.isInteger(s.version) && existsSync(join(dir, s.name, "scored.json")))
    .sort((a, b) => b.version - a.version);
  const latest = versions[0];
  if (!latest) return null;
  return { name: latest.name, scoring: JSON.parse(readFileSync(join(dir, latest.name, "scored.json"), "utf8")) };
}

describe("the published frozen-split figure", () => {
  const latest = latestScored();

  it("is the latest scored split's, on the commit its record names", () => {
    expect(latest).not.toBeNull();
    const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    expect(readme).toContain(`scored once on commit \`${latest?.scoring.commit}\``);
  });

  it("describes the detector as it is: its files unchanged since that commit", () => {
    expect(
      detectorSha256(),
      `the detector's files changed after ${latest?.scoring.commit}, on which ${latest?.name} was scored: score the next frozen split`,
    ).toBe(latest?.scoring.detectorSha256);
  });
});
