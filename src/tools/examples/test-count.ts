/** Counters printed by common test runners; the last match wins (summaries come last). */
const TOTALS: RegExp[] = [
  /^\s*#\s*tests\s+(\d+)\s*$/gm, // node:test TAP
  /^\s*ℹ\s*tests\s+(\d+)\s*$/gm, // node:test spec reporter
  /^\s*Tests:\s+.*?\b(\d+)\s+total\b/gm, // jest
  /^\s*Tests\s+.*\((\d+)\)\s*$/gm, // vitest
];

const PASSED_FAILED = /\b(\d+)\s+(?:passed|passing)\b(?:[,;]\s*(\d+)\s+(?:failed|failing)\b)?/g;
const FAILED_PASSED = /\b(\d+)\s+(?:failed|failing)[,;]\s*(\d+)\s+(?:passed|passing)\b/g;

function last(re: RegExp, text: string): RegExpExecArray | undefined {
  let found: RegExpExecArray | undefined;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) found = m;
  return found;
}

/** How many tests ran, read from the runner's summary, or undefined when no known summary is present. */
export function parseTestsRun(output: string): number | undefined {
  for (const re of TOTALS) {
    const m = last(re, output);
    if (m) return Number(m[1]);
  }
  const fp = last(FAILED_PASSED, output);
  if (fp) return Number(fp[1]) + Number(fp[2]);
  const pf = last(PASSED_FAILED, output);
  if (pf) return Number(pf[1]) + Number(pf[2] ?? 0);
  return undefined;
}
