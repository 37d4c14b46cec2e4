import { linkSync, mkdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { writeLargeSession } from "../test/synth/large-session.js";
import { type ChildLaunch, type ProcessSample, runProcess } from "./processes.js";
import { median, ratio } from "./stats.js";

export interface FolderRow {
  name: string;
  wallMs: number;
  filesPerSecond: number;
  megabytesPerSecond: number;
  /** wallMs / the floor's wallMs. */
  floorRatio: number;
}

export interface FolderResult {
  files: number;
  /** Distinct generated sessions; each is linked into the folder files / distinct times. */
  distinct: number;
  bytes: number;
  entries: number;
  cores: number;
  floor: FolderRow;
  rows: FolderRow[];
  reps: number;
}

const FOLDER_COMMANDS = [
  ["check --json", ["check"]],
  ["inspect --json", ["inspect"]],
  ["replay --json", ["replay"]],
] as const;

/** A folder of `files` sessions: `distinct` generated ones of 50–400 entries, hard-linked under numbered names. */
export function writeSessionFolder(dir: string, files: number, distinct: number) {
  const sources = join(dir, "sources");
  const sessions = join(dir, "sessions");
  mkdirSync(sources, { recursive: true });
  mkdirSync(sessions, { recursive: true });
  const made = Array.from({ length: distinct }, (_, i) =>
    writeLargeSession(join(sources, `s${i}.jsonl`), { entries: 50 + ((i * 37) % 350), seed: 100 + i }),
  );
  let bytes = 0;
  let entries = 0;
  for (let i = 0; i < files; i++) {
    const source = made[i % distinct] as (typeof made)[number];
    linkSync(source.file, join(sessions, `session-${String(i).padStart(4, "0")}.jsonl`));
    bytes += statSync(source.file).size;
    entries += source.entries;
  }
  return { dir: sessions, files, distinct, bytes, entries };
}

/** `check`/`inspect`/`replay DIR --json` as whole processes against the floor of the folder on every core. */
export async function measureFolder(
  launch: ChildLaunch,
  folder: ReturnType<typeof writeSessionFolder>,
  reps: number,
  scratch: string,
): Promise<FolderResult> {
  const jobs = [
    { key: "floor", args: ["floor-dir", folder.dir] },
    ...FOLDER_COMMANDS.map(([name, args]) => ({ key: name as string, args: ["kit", ...args, folder.dir, "--json"] })),
  ];
  const samples = new Map<string, ProcessSample[]>(jobs.map((j) => [j.key, []]));
  for (let round = 0; round < reps; round++) {
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[(i + round) % jobs.length] as (typeof jobs)[number];
      samples.get(job.key)?.push(await runProcess(launch, job.args, scratch));
    }
  }
  const row = (key: string, floorMs: number): FolderRow => {
    const wallMs = median((samples.get(key) ?? []).map((s) => s.wallMs));
    return {
      name: key,
      wallMs,
      filesPerSecond: folder.files / (wallMs / 1000),
      megabytesPerSecond: folder.bytes / 1e6 / (wallMs / 1000),
      floorRatio: ratio(wallMs, floorMs),
    };
  };
  const floorMs = median((samples.get("floor") ?? []).map((s) => s.wallMs));
  return {
    files: folder.files,
    distinct: folder.distinct,
    bytes: folder.bytes,
    entries: folder.entries,
    cores: availableParallelism(),
    floor: row("floor", floorMs),
    rows: FOLDER_COMMANDS.map(([name]) => row(name, floorMs)),
    reps,
  };
}
