/** Precision/recall tallies and the tables `npm run eval:stall` prints. */

export interface Scored {
  id: string;
  expected: boolean;
  predicted: boolean;
  lang: string;
  category: string;
  /** Printed with a miss; left empty for the frozen test split. */
  detail: string;
}

export interface Tally {
  tp: number;
  fn: number;
  fp: number;
  tn: number;
}

export function tally(items: readonly Scored[]): Tally {
  const t: Tally = { tp: 0, fn: 0, fp: 0, tn: 0 };
  for (const s of items) {
    if (s.expected) s.predicted ? t.tp++ : t.fn++;
    else s.predicted ? t.fp++ : t.tn++;
  }
  return t;
}

const ratio = (n: number, d: number) => (d === 0 ? 1 : n / d);
export const recall = (t: Tally) => ratio(t.tp, t.tp + t.fn);
export const precision = (t: Tally) => ratio(t.tp, t.tp + t.fp);

function row(name: string, t: Tally): string {
  const cells = [t.tp, t.fn, t.fp, t.tn].map((n) => String(n).padStart(5));
  const r = t.tp + t.fn === 0 ? "    -" : recall(t).toFixed(3);
  const p = t.tp + t.fp === 0 ? "    -" : precision(t).toFixed(3);
  return `  ${name.padEnd(26)}${cells.join("")}  ${r}     ${p}`;
}

function groupRows(items: readonly Scored[], key: (s: Scored) => string): string[] {
  const keys = [...new Set(items.map(key))].sort();
  return keys.map((k) => row(k, tally(items.filter((s) => key(s) === k))));
}

/** The whole report of one set: totals, by language, by category, and every miss (unless `misses` is false). */
export function report(name: string, items: readonly Scored[], misses = true): string {
  const lines = [`${name}: ${items.length} cases`, `  ${"".padEnd(26)}   TP   FN   FP   TN  recall  precision`];
  lines.push(row("all", tally(items)), "  by language:", ...groupRows(items, (s) => s.lang));
  lines.push("  by category:", ...groupRows(items, (s) => s.category));
  const wrong = items.filter((s) => s.expected !== s.predicted);
  lines.push(`  misses: ${wrong.length}${misses ? "" : " (not printed)"}`);
  for (const m of misses ? wrong : []) {
    const kind = m.expected ? "FN" : "FP";
    lines.push(`    ${kind} ${m.id} [${m.category}, ${m.lang}]${m.detail ? ` ${m.detail}` : ""}`);
  }
  return lines.join("\n");
}
