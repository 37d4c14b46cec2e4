import type { CommandsResult } from "./commands.js";
import type { FileToolsResult } from "./file-tools.js";
import type { FleetBenchRow } from "./fleet.js";
import type { LoadRow } from "./load.js";
import type { PerRequestRow } from "./per-request.js";
import type { ReplayResult } from "./replay.js";

/** One target, shown by the benchmark and checked by `bench --check` (never asserted by a timed test). */
export interface Target {
  name: string;
  /** The measured ratio. */
  value: number;
  /** The ratio must be at most this. */
  max: number;
  met: boolean;
  /** False for a target defined on the full-size inputs (the ~100 MB file, 1k → 100k entries) in a quick run. */
  applicable: boolean;
  what: string;
}

/** Targets whose inputs only a full run has: a quick run's small files measure node start-up, not the kit. */
const FULL_SIZE = /^(command|memory|fleet)\.|^(foldGrowth|hookGrowth)$/;

/** Whether `--check` fails on this target. */
export function missed(t: Target): boolean {
  return t.applicable && !t.met;
}

export const BENCH_TARGETS = {
  load: 1.0,
  memory: 1.0,
  replay: 0.1,
  foldGrowth: 1.5,
  rewrite: 0.1,
  grep: 2,
  find: 1.5,
  ls: 1.5,
} as const;

function target(name: string, value: number, max: number, what: string): Target {
  return { name, value, max, met: Number.isFinite(value) && value <= max, applicable: true, what };
}

export function targetResults(r: {
  load: LoadRow[];
  replay: ReplayResult;
  perRequest: PerRequestRow[];
  foldGrowth: { from: string; to: string; ratio: number; anchoredRatio: number; hookRatio: number };
  commands: CommandsResult;
  fileTools: FileToolsResult;
  fleet: FleetBenchRow[];
  quick: boolean;
}): Target[] {
  const out: Target[] = [];
  for (const row of r.fleet) {
    if (!row.info) out.push(target(`fleet.${row.name}`, row.ratio, row.target, `${row.name} / ${row.baseline}`));
  }
  for (const row of r.commands.rows) {
    out.push(target(`command.${row.name}`, row.floorRatio, row.target, "whole process / the parse floor's process"));
  }
  for (const row of r.commands.rows) {
    out.push(
      target(
        `memory.${row.name}`,
        row.netMemoryRatio,
        BENCH_TARGETS.memory,
        "(peak RSS − RSS after imports) / the same for the host's load",
      ),
    );
  }
  for (const row of r.load) {
    out.push(target(`load.${row.name}`, row.ratio, BENCH_TARGETS.load, "kit load time / host load time"));
  }
  out.push(target("replay", r.replay.ratio, BENCH_TARGETS.replay, "memoised fold of all branches / host per leaf"));
  out.push(
    target(
      "foldGrowth",
      r.foldGrowth.ratio,
      BENCH_TARGETS.foldGrowth,
      `per-request fold median at ${r.foldGrowth.to} / at ${r.foldGrowth.from}`,
    ),
  );
  out.push(
    target(
      "hookGrowth",
      r.foldGrowth.hookRatio,
      BENCH_TARGETS.foldGrowth,
      `whole context hook (pass) median at ${r.foldGrowth.to} / at ${r.foldGrowth.from}: flat in transcript length`,
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
  for (const tool of ["grep", "find", "ls"] as const) {
    const total = r.fileTools.totals[tool];
    if (total.ratio !== null) {
      out.push(
        target(`tools.${tool}`, total.ratio, BENCH_TARGETS[tool], `guarded ${tool} / the host's ${tool}, summed`),
      );
    }
  }
  if (r.quick) for (const t of out) t.applicable = !FULL_SIZE.test(t.name);
  return out;
}
