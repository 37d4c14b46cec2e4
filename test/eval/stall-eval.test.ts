import { describe, expect, it } from "vitest";
import { detectStall } from "../../src/detect/index.js";
import { STALL_CASES, type StallCase } from "./stall-cases.js";

interface Tally {
  tp: number;
  fn: number;
  fp: number;
  tn: number;
}

function tally(cases: readonly StallCase[]): Tally {
  const t: Tally = { tp: 0, fn: 0, fp: 0, tn: 0 };
  for (const c of cases) {
    const stalled = detectStall(c.events).stalled;
    if (c.label === "stalled") stalled ? t.tp++ : t.fn++;
    else stalled ? t.fp++ : t.tn++;
  }
  return t;
}

const ratio = (n: number, d: number) => (d === 0 ? 1 : n / d);
const recall = (t: Tally) => ratio(t.tp, t.tp + t.fn);
const precision = (t: Tally) => ratio(t.tp, t.tp + t.fp);

function row(name: string, t: Tally): string {
  const cells = [t.tp, t.fn, t.fp, t.tn].map((n) => String(n).padStart(4));
  return `${name.padEnd(8)}${cells.join("")}  ${recall(t).toFixed(3)}  ${precision(t).toFixed(3)}`;
}

describe("stall detector evaluation set", () => {
  const total = tally(STALL_CASES);
  const misses = STALL_CASES.filter((c) => detectStall(c.events).stalled !== (c.label === "stalled"));

  it("has at least 40 hand-labelled cases of each kind in three languages", () => {
    expect(STALL_CASES.filter((c) => c.label === "stalled").length).toBeGreaterThanOrEqual(40);
    expect(STALL_CASES.filter((c) => c.label === "not-stalled").length).toBeGreaterThanOrEqual(40);
    expect(new Set(STALL_CASES.map((c) => c.name)).size).toBe(STALL_CASES.length);
    expect(new Set(STALL_CASES.map((c) => c.lang))).toEqual(new Set(["en", "zh", "mixed"]));
  });

  it("reports recall and precision, with zero false positives and recall >= 0.95", () => {
    const lines = ["set       TP  FN  FP  TN  recall precision"];
    for (const lang of ["en", "zh", "mixed"] as const) {
      lines.push(row(lang, tally(STALL_CASES.filter((c) => c.lang === lang))));
    }
    lines.push(row("all", total));
    for (const c of misses) lines.push(`miss: [${c.label}] ${c.name} — ${detectStall(c.events).reason}`);
    console.log(lines.join("\n"));

    expect(total.fp, misses.map((c) => c.name).join("; ")).toBe(0);
    expect(recall(total)).toBeGreaterThanOrEqual(0.95);
  });
});
