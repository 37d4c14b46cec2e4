import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CORPUS, scanCorpus } from "./loop-corpus.js";

interface Verdict {
  file: string;
  first: string;
  kind: string;
  leaves: string[];
  verdict: "loop" | "not-a-loop";
  reason: string;
}

/** Hand-judged verdicts on every episode and flagged leaf of the corpus (the rule is in docs/tool-loops.md). */
const VERDICTS: Verdict[] = readFileSync(join(import.meta.dirname, "loop-corpus-verdicts.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as Verdict);

const scan = scanCorpus();
const name = (v: { file: string; first: string; kind: string }) => `${v.file} ${v.first} ${v.kind}`;

describe("tool loops on the real-session corpus", () => {
  if (scan === null) {
    it("needs the corpus", () => {
      if (process.env.CI) throw new Error(`no real-session corpus at ${CORPUS}`);
      console.log(`skipped: no real-session corpus at ${CORPUS}`);
    });
    return;
  }

  it("finds exactly the judged episodes, and each flagged leaf in the episode judged for it", () => {
    expect(scan.files).toBe(386);
    const found = scan.episodes.map((e) => `${name(e)} leaves ${[...e.leaves].sort().join(",")}`).sort();
    const judged = VERDICTS.map((v) => `${name(v)} leaves ${[...v.leaves].sort().join(",")}`).sort();
    expect(found).toEqual(judged);
    const flagged = scan.leafFlags.map((f) => `${name(f)} leaves ${f.leaf}`).sort();
    const judgedLeaves = VERDICTS.flatMap((v) => v.leaves.map((leaf) => `${name(v)} leaves ${leaf}`)).sort();
    expect(flagged).toEqual(judgedLeaves);
  });

  it("keeps hand-judged precision at leaves and for episodes", () => {
    const correct = (v: Verdict) => v.verdict === "loop";
    const leafVerdicts = VERDICTS.flatMap((v) => v.leaves.map(() => v));
    const atLeaves = leafVerdicts.filter(correct).length / leafVerdicts.length;
    const episodes = VERDICTS.filter(correct).length / VERDICTS.length;
    const byKind = new Map<string, number>();
    for (const e of scan.episodes) byKind.set(e.kind, (byKind.get(e.kind) ?? 0) + 1);
    const wasted = scan.episodes.reduce((sum, e) => sum + e.wastedCalls, 0);
    const inEpisodes = scan.episodes.reduce((sum, e) => sum + e.callCount, 0);
    console.log(
      [
        `${scan.files} files, ${scan.leaves} leaves, ${scan.toolCalls} tool calls`,
        `${scan.episodes.length} episodes (${[...byKind].map(([k, n]) => `${k} ${n}`).join(", ")}), ${inEpisodes} calls in them, ${wasted} wasted`,
        `${scan.episodes.filter((e) => e.leaves.length === 0).length} escaped mid-branch; ${scan.leafFlags.length} flagged leaves`,
        `precision: leaves ${atLeaves.toFixed(3)}, episodes ${episodes.toFixed(3)}`,
      ].join("\n"),
    );
    expect(atLeaves).toBeGreaterThanOrEqual(0.95);
    expect(episodes).toBeGreaterThanOrEqual(0.9);
  });
});
