import { join } from "node:path";
import { type ChildLaunch, type ProcessSample, runProcess } from "./processes.js";
import { median, ratio } from "./stats.js";

/** An offline command measured as a whole process against the parse floor, with its target (× floor). */
interface CommandSpec {
  name: string;
  args(file: string, scratch: string): string[];
  target: number;
}

export const COMMANDS: readonly CommandSpec[] = [
  { name: "inspect --json", args: (f) => ["inspect", f, "--json"], target: 1.5 },
  { name: "replay --json", args: (f) => ["replay", f, "--json"], target: 1.5 },
  { name: "check --json", args: (f) => ["check", f, "--json"], target: 1.5 },
  { name: "detect --json", args: (f) => ["detect", f, "--json"], target: 2 },
  { name: "view --json", args: (f) => ["view", f, "--json"], target: 2 },
  { name: "report", args: (f, s) => ["report", f, "--out", join(s, "report.html")], target: 3 },
];

export interface ProcessSummary {
  /** Medians over the repetitions. */
  wallMs: number;
  workMs: number;
  maxRssBytes: number;
  baselineRssBytes: number;
}

export interface CommandRow extends ProcessSummary {
  name: string;
  /** wallMs / the floor's wallMs. */
  floorRatio: number;
  /** Target for floorRatio. */
  target: number;
  /** Peak RSS / the host load's peak RSS. */
  memoryRatio: number;
  /** (peak − RSS after imports) / the same for the host's load: what each side's work itself takes. */
  netMemoryRatio: number;
}

export interface CommandsResult {
  name: string;
  bytes: number;
  /** read + split + JSON.parse of each line, in its own process. */
  floor: ProcessSummary;
  /** The host's load (read, parse, migrate, buildSessionContext), in its own process. */
  host: ProcessSummary & { floorRatio: number };
  rows: CommandRow[];
  reps: number;
}

function summary(samples: ProcessSample[]): ProcessSummary {
  return {
    wallMs: median(samples.map((s) => s.wallMs)),
    workMs: median(samples.map((s) => s.workMs)),
    maxRssBytes: median(samples.map((s) => s.maxRssBytes)),
    baselineRssBytes: median(samples.map((s) => s.baselineRssBytes)),
  };
}

const net = (s: ProcessSummary) => Math.max(1, s.maxRssBytes - s.baselineRssBytes);

/**
 * Every command, the floor and the host's load as separate processes on one file, in a rotating order per round so
 * that none always runs first or last.
 */
export async function measureCommands(
  launch: ChildLaunch,
  input: { name: string; file: string; bytes: number },
  reps: number,
  scratch: string,
): Promise<CommandsResult> {
  const jobs: { key: string; args: string[] }[] = [
    { key: "floor", args: ["floor", input.file] },
    { key: "host", args: ["host", input.file] },
    ...COMMANDS.map((c) => ({ key: c.name, args: ["kit", ...c.args(input.file, scratch)] })),
  ];
  const samples = new Map<string, ProcessSample[]>(jobs.map((j) => [j.key, []]));
  for (let round = 0; round < reps; round++) {
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[(i + round) % jobs.length] as (typeof jobs)[number];
      samples.get(job.key)?.push(await runProcess(launch, job.args, scratch));
    }
  }
  const floor = summary(samples.get("floor") ?? []);
  const host = summary(samples.get("host") ?? []);
  return {
    name: input.name,
    bytes: input.bytes,
    floor,
    host: { ...host, floorRatio: ratio(host.wallMs, floor.wallMs) },
    rows: COMMANDS.map((c) => {
      const s = summary(samples.get(c.name) ?? []);
      return {
        name: c.name,
        ...s,
        floorRatio: ratio(s.wallMs, floor.wallMs),
        target: c.target,
        memoryRatio: ratio(s.maxRssBytes, host.maxRssBytes),
        netMemoryRatio: ratio(net(s), net(host)),
      };
    }),
    reps,
  };
}
