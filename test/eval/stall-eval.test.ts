import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectStall } from "../../src/detect/index.js";
import { realSessionsPresent, SHARED_SESSIONS } from "../helpers/shared-sessions.js";
import { precision, recall, report, type Scored, tally } from "./eval-table.js";
import { readLabels, scoreRealLeaves, scoreRealReplies, scoreSplit } from "./labelled-sets.js";
import { CORPUS } from "./loop-corpus.js";
import { trainFiles } from "./real-reply-labels.js";
import { STALL_CASES } from "./stall-cases.js";

const SET = join(import.meta.dirname, "stall-set");
/** Real Pi sessions: `../shared/pi-sessions` beside the project, or the folder named by CONTEXT_KIT_SHARED_SESSIONS. */
const REAL = SHARED_SESSIONS;

const regression: Scored[] = STALL_CASES.map((c) => {
  const verdict = detectStall(c.events);
  return {
    id: c.name,
    expected: c.label === "stalled",
    predicted: verdict.stalled,
    lang: c.lang,
    category: c.label,
    detail: `— ${verdict.reason}`,
  };
});
/** Dev folders, one per writer: each frozen split is folded in here once scored (see stall-set/SCORES.md). */
const DEV_FOLDERS = [
  "dev",
  "dev-b",
  "dev-c",
  "dev-d",
  "dev-e",
  "dev-f",
  "dev-g",
  "dev-h",
  "dev-i",
  "dev-j",
  "dev-k",
  "dev-l",
  "dev-m",
  "dev-n",
  "dev-o",
  "dev-p",
  "dev-q",
  "dev-r",
  "dev-s",
  "dev-t",
  "dev-u",
];
const devs = DEV_FOLDERS.map((name) => ({ name, items: scoreSplit(join(SET, name), true) }));
const dev = devs.flatMap(({ name, items }) => (items ?? []).map((s) => ({ ...s, id: `${name}/${s.id}` })));
/**
 * The frozen test split is scored only when `stall-set/test/` exists (another writer adds it);
 * STALL_EVAL_DEV_ONLY=1 leaves it out (for work on the dev split).
 */
const test = process.env.STALL_EVAL_DEV_ONLY ? null : scoreSplit(join(SET, "test"), false);
/** The targets on the frozen test split: printed as MET or MISSED; the test asserts only a floor. */
const TARGET = { precision: 0.98, recall: 0.95, languageRecall: 0.9 };
const FLOOR = { precision: 0.95, recall: 0.5 };

function targetLine(items: readonly Scored[]): string {
  const t = tally(items);
  const langs = [...new Set(items.map((s) => s.lang))].sort();
  const low = langs.filter((l) => recall(tally(items.filter((s) => s.lang === l))) < TARGET.languageRecall);
  const met = precision(t) >= TARGET.precision && recall(t) >= TARGET.recall && low.length === 0;
  const figures = `precision ${precision(t).toFixed(3)}, recall ${recall(t).toFixed(3)}`;
  const lows = low.length ? `; languages under ${TARGET.languageRecall}: ${low.join(", ")}` : "";
  return `issue targets (precision >= ${TARGET.precision}, recall >= ${TARGET.recall}, every language >= ${TARGET.languageRecall}): ${met ? "MET" : "MISSED"} — ${figures}${lows}`;
}
/**
 * What the v22 split scored when it was scored once (the floor English and Chinese keep), and the verdicts its figure
 * describes now, with a fingerprint of them.
 */
const SCORED = JSON.parse(readFileSync(join(SET, "v22-baseline.json"), "utf8")) as {
  commit: string;
  all: Tally;
  byLanguage: Record<string, Tally & { precision: number; recall: number }>;
  verdicts: { commit: string; tally: Tally; stalledSha256: string };
};
type Tally = { tp: number; fn: number; fp: number; tn: number };
const stalledSha256 = (items: readonly Scored[]) =>
  createHash("sha256")
    .update(
      items
        .filter((s) => s.predicted)
        .map((s) => s.id)
        .sort()
        .join("\n"),
    )
    .digest("hex");
const real = realSessionsPresent(REAL, "stall eval on real sessions") ? scoreRealLeaves(REAL) : null;
const realReplies = scoreRealReplies(join(import.meta.dirname, "real-replies", "labels.jsonl"), REAL);
/** Replies of the real corpus, each folder labelled by a writer who saw no code: held out from what the detector learned. */
const REPLY_SETS = join(import.meta.dirname, "real-replies");
const heldOut = readdirSync(REPLY_SETS)
  .filter((name) => name.startsWith("corpus-"))
  .sort()
  .map((name) => ({
    name,
    items: scoreRealReplies(join(REPLY_SETS, name, "labels.jsonl"), CORPUS, trainFiles(join(REPLY_SETS, name))),
  }))
  .filter((set) => set.items !== null);

describe("stall detector evaluation", () => {
  it("prints precision and recall per set, by language and category, and every miss", () => {
    const parts = [report("regression (90 hand-written transcripts, the earlier in-sample set)", regression)];
    for (const { name, items } of devs) {
      if (items) parts.push(report(`dev split ${name}/ (tuned on)`, items));
    }
    if (devs.filter((d) => d.items).length > 1) parts.push(report("dev splits combined (tuned on)", dev));
    if (test) parts.push(`${report("test split (frozen; scored only)", test)}\n  ${targetLine(test)}`);
    if (real) parts.push(report(`real sessions: every entry of every file in ${REAL} as a leaf`, real));
    const replyTitle = "the detector's reading (a promise to either reader) of every hand-labelled text-only reply";
    if (realReplies) parts.push(report(`real replies of the public sessions: ${replyTitle}`, realReplies));
    for (const { name, items } of heldOut) {
      parts.push(report(`held-out real replies of the corpus (${name}): ${replyTitle}`, items ?? []));
    }
    console.log(parts.join("\n\n"));
    // Every set present is printed, each with its totals and a row per language.
    const present = devs.filter((d) => d.items).length;
    const expected =
      1 + present + (present > 1 ? 1 : 0) + (test ? 1 : 0) + (real ? 1 : 0) + (realReplies ? 1 : 0) + heldOut.length;
    expect(parts).toHaveLength(expected);
    for (const part of parts) expect(part).toMatch(/\n {2}all +\d+ +\d+ +\d+ +\d+ /);
  });

  it("regression set: at least 40 cases of each label in three languages, no false positive, recall >= 0.95", () => {
    expect(STALL_CASES.filter((c) => c.label === "stalled").length).toBeGreaterThanOrEqual(40);
    expect(STALL_CASES.filter((c) => c.label === "not-stalled").length).toBeGreaterThanOrEqual(40);
    expect(new Set(STALL_CASES.map((c) => c.name)).size).toBe(STALL_CASES.length);
    const t = tally(regression);
    const misses = regression.filter((s) => s.expected !== s.predicted).map((s) => s.id);
    expect(t.fp, misses.join("; ")).toBe(0);
    expect(recall(t)).toBeGreaterThanOrEqual(0.95);
  });

  it.runIf(real !== null)("real sessions: no leaf, and no earlier entry taken as a leaf, is a stall", () => {
    const stalled = (real ?? []).filter((s) => s.predicted).map((s) => `${s.id} ${s.detail}`);
    expect(stalled).toEqual([]);
  });

  it.runIf(heldOut.length > 0)("held-out real replies: the reading each set's published figure describes", () => {
    for (const { name, items } of heldOut) {
      const published = JSON.parse(readFileSync(join(REPLY_SETS, name, "scored.json"), "utf8")) as { tally: object };
      const { tp, fn, fp, tn } = tally(items ?? []);
      expect({ tp, fn, fp, tn }, `publish the figure of ${name} again`).toEqual(published.tally);
    }
  });

  it("dev splits: every labelled leaf of every dev folder is scored", () => {
    for (const { name, items } of devs) {
      expect(items?.length, name).toBe(readLabels(join(SET, name))?.length);
      expect(items?.length, name).toBeGreaterThan(0);
    }
  });

  // A published figure stands for the code only while the code gives the split the verdicts it was scored with; a
  // detector that reads it differently needs a fresh split scored (its misses are not printed here).
  it.runIf(test !== null)(`frozen test split: the verdicts its figure describes (${SCORED.verdicts.commit})`, () => {
    const { tp, fn, fp, tn } = tally(test ?? []);
    const sha = stalledSha256(test ?? []);
    const why = `the detector's verdicts on the frozen split (stalled ids ${sha}) differ from those recorded on ${SCORED.verdicts.commit}: its figure no longer describes this code; record them with why, or score a fresh split`;
    expect({ tp, fn, fp, tn }, why).toEqual(SCORED.verdicts.tally);
    expect(sha, why).toBe(SCORED.verdicts.stalledSha256);
  });

  it.runIf(test !== null)(
    `frozen test split: English and Chinese no lower than first scored (${SCORED.commit})`,
    () => {
      for (const lang of ["en", "zh-Hans", "zh-Hant"]) {
        const floor = SCORED.byLanguage[lang];
        const t = tally((test ?? []).filter((s) => s.lang === lang));
        expect(precision(t), `${lang} precision`).toBeGreaterThanOrEqual(floor?.precision ?? 1);
        expect(recall(t), `${lang} recall`).toBeGreaterThanOrEqual(floor?.recall ?? 1);
      }
    },
  );

  // The targets are printed (MET / MISSED) with the report; the published figure is what counts.
  // The assertion is a floor a regression would break on a split no rule was tuned on.
  it.runIf(test !== null)(`frozen test split: precision >= ${FLOOR.precision}, recall >= ${FLOOR.recall}`, () => {
    const t = tally(test ?? []);
    expect(precision(t)).toBeGreaterThanOrEqual(FLOOR.precision);
    expect(recall(t)).toBeGreaterThanOrEqual(FLOOR.recall);
  });
});
