import type { LoadRow } from "./load.js";
import type { MemoryResult } from "./memory.js";
import type { PerRequestRow } from "./per-request.js";
import type { ReplayResult } from "./replay.js";

/** One target of issue 8, shown by the benchmark (never asserted by a timed test). */
export interface Target {
  name: string;
  /** The measured ratio. */
  value: number;
  /** The ratio must be at most this. */
  max: number;
  met: boolean;
  what: string;
}

export const BENCH_TARGETS = {
  load: 1.0,
  memory: 1.0,
  replay: 0.1,
  foldGrowth: 1.5,
  rewrite: 0.1,
} as const;

function target(name: string, value: number, max: number, what: string): Target {
  return { name, value, max, met: Number.isFinite(value) && value <= max, what };
}

export function targetResults(r: {
  load: LoadRow[];
  replay: ReplayResult;
  perRequest: PerRequestRow[];
  foldGrowth: { from: string; to: string; ratio: number; anchoredRatio: number };
  memory: MemoryResult;
}): Target[] {
  const out: Target[] = [];
  for (const row of r.load) {
    out.push(target(`load.${row.name}`, row.ratio, BENCH_TARGETS.load, "kit load time / host load time"));
  }
  out.push(target("memory", r.memory.ratio, BENCH_TARGETS.memory, "kit inspect peak RSS / host load peak RSS"));
  out.push(target("replay", r.replay.ratio, BENCH_TARGETS.replay, "memoised fold of all branches / host per leaf"));
  out.push(
    target(
      "foldGrowth",
      r.foldGrowth.ratio,
      BENCH_TARGETS.foldGrowth,
      `per-request fold median at ${r.foldGrowth.to} / at ${r.foldGrowth.from}`,
    ),
  );
  for (const row of r.perRequest) {
    out.push(
      target(
        `perRequest.${row.name}.rewrite`,
        row.rewriteRatio,
        BENCH_TARGETS.rewrite,
        "hook with recovery view / host structuredClone",
      ),
    );
  }
  return out;
}
