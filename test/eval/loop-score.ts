import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolLoopKind, ToolLoopReport } from "../../reducers/contract/kit-entries.js";
import { toolLoopReport } from "../../reducers/tool-loop.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { loadSession } from "../../src/session.js";

export const LOOP_SET = join(import.meta.dirname, "loop-set");
export const KINDS: readonly ToolLoopKind[] = ["repeat", "ping-pong", "repeated-failure", "post-compaction"];

export interface LoopLabel {
  file: string;
  leaf: string | null;
  loop: ToolLoopKind | null;
  category?: string;
  note?: string;
}

export interface LoopOutcome {
  label: LoopLabel;
  detected: ToolLoopReport | null;
  /** A problem loading the case (its file or leaf is missing): scored as a miss. */
  problem: string | null;
}

export function readLabels(split: string): LoopLabel[] | null {
  const path = join(LOOP_SET, split, "labels.jsonl");
  if (!existsSync(path)) return null;
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, i) => {
      try {
        return JSON.parse(line) as LoopLabel;
      } catch (error) {
        throw new Error(`${path}:${i + 1}: ${(error as Error).message}`);
      }
    });
}

/** The detector's verdict for one labelled case, at the labelled leaf (or the active leaf). */
export function runCase(split: string, label: LoopLabel): LoopOutcome {
  const path = join(LOOP_SET, split, label.file);
  if (!existsSync(path)) return { label, detected: null, problem: `no file ${label.file}` };
  const { tree } = loadSession(path);
  const leaf = label.leaf ?? tree.activeLeafId;
  if (leaf !== null && !tree.get(leaf)) return { label, detected: null, problem: `no entry ${leaf}` };
  return { label, detected: toolLoopReport(foldTree(tree).stateAt(leaf).toolLoop), problem: null };
}

export interface Tally {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

/** Strict scoring: a detection counts only with the labelled kind; a wrong kind is a false positive and a miss. */
export function tally(outcomes: readonly LoopOutcome[], kind?: ToolLoopKind): Tally {
  const t: Tally = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const o of outcomes) {
    const expected = o.label.loop;
    const got = o.detected?.kind ?? null;
    const isExpected = kind === undefined ? expected !== null : expected === kind;
    const isGot = kind === undefined ? got !== null : got === kind;
    if (isExpected && isGot && got === expected) t.tp++;
    else {
      if (isGot) t.fp++;
      if (isExpected) t.fn++;
      if (!isGot && !isExpected) t.tn++;
    }
  }
  return t;
}

const ratio = (n: number, d: number) => (d === 0 ? 1 : n / d);
export const precision = (t: Tally) => ratio(t.tp, t.tp + t.fp);
export const recall = (t: Tally) => ratio(t.tp, t.tp + t.fn);

function row(name: string, t: Tally): string {
  const cells = [t.tp, t.fp, t.fn, t.tn].map((n) => String(n).padStart(5));
  return `  ${name.padEnd(18)}${cells.join("")}   ${precision(t).toFixed(3)}   ${recall(t).toFixed(3)}`;
}

export function misses(outcomes: readonly LoopOutcome[]): LoopOutcome[] {
  return outcomes.filter((o) => o.problem !== null || (o.detected?.kind ?? null) !== o.label.loop);
}

/** The printed report of one split: totals, by kind, every miss. */
export function formatSplit(split: string, outcomes: readonly LoopOutcome[]): string {
  const lines = [`${split}: ${outcomes.length} cases`, `  ${"".padEnd(18)}   TP   FP   FN   TN   precision recall`];
  lines.push(row("all", tally(outcomes)));
  for (const kind of KINDS) lines.push(row(kind, tally(outcomes, kind)));
  for (const o of misses(outcomes)) {
    const got = o.problem ?? o.detected?.kind ?? "none";
    lines.push(
      `  miss ${o.label.file} leaf ${o.label.leaf ?? "(active)"}: labelled ${o.label.loop ?? "none"}, got ${got}`,
    );
  }
  return lines.join("\n");
}
