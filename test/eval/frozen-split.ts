import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { precision, recall, type Scored, type Tally, tally } from "./eval-table.js";

/** A frozen split scored once: the figure it published and the detector it describes. */
const ROOT = join(import.meta.dirname, "..", "..");
/** The detector: what the split's figure describes. */
const DETECTOR = ["src/detect", "reducers/recovery.ts", "src/fold/run-events.ts"];
const BARS = { precision: 0.97, recall: 0.93, languagePrecision: 0.95, languageRecall: 0.9 };

export interface Scoring {
  commit: string;
  detectorSha256: string;
  tally: Tally;
  byLanguage: Record<string, Tally>;
}

function filesOf(path: string): string[] {
  const full = join(ROOT, path);
  if (!path.startsWith("src/detect")) return [full];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

/** SHA-256 of the detector's files, each by its path and bytes, in path order. */
export function detectorSha256(): string {
  const hash = createHash("sha256");
  for (const file of DETECTOR.flatMap(filesOf).sort()) {
    hash.update(`${relative(ROOT, file)}\n`).update(readFileSync(file));
  }
  return hash.digest("hex");
}

export function byLanguage(items: readonly Scored[]): Record<string, Tally> {
  const langs = [...new Set(items.map((s) => s.lang))].sort();
  return Object.fromEntries(langs.map((lang) => [lang, tally(items.filter((s) => s.lang === lang))]));
}

/** Whether the figures meet the issue's bars, and which languages fall short. */
export function barsLine(items: readonly Scored[]): string {
  const t = tally(items);
  const short = Object.entries(byLanguage(items))
    .filter(([, l]) => precision(l) < BARS.languagePrecision || recall(l) < BARS.languageRecall)
    .map(([lang, l]) => `${lang} (P ${precision(l).toFixed(2)}, R ${recall(l).toFixed(2)})`);
  const met = precision(t) >= BARS.precision && recall(t) >= BARS.recall && short.length === 0;
  return `bars (P >= ${BARS.precision}, R >= ${BARS.recall}; each language P >= ${BARS.languagePrecision}, R >= ${BARS.languageRecall}): ${met ? "MET" : "MISSED"} — P ${precision(t).toFixed(3)}, R ${recall(t).toFixed(3)}${short.length ? `; short: ${short.join(", ")}` : ""}`;
}
