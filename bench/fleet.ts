import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { replayFile } from "../src/cli/commands/replay.js";
import { expandInputs } from "../src/cli/inputs.js";
import { FleetDb } from "../src/fleet/db.js";
import { indexInto } from "../src/fleet/index-run.js";
import { childEnv } from "./child-env.js";

/**
 * The fleet rows of the benchmark, self-contained: each times the kit against the command it is measured by, on the
 * same data, and says whether the target is met. Both sides of a target row are whole `context-kit` processes, as a
 * user runs them (start-up, loading DuckDB and the final commit included). The appended file is also timed
 * in-process (a long-running indexer with its database open, against `replay` of the new tail in the same process):
 * shown for what the tail itself costs, with no target.
 */
export interface FleetBenchRow {
  name: string;
  ms: number;
  /** What it is measured against, and its time. */
  baseline: string;
  baselineMs: number;
  ratio: number;
  /** The largest ratio the issue allows. */
  target: number;
  met: boolean;
  /** Shown for context: not a target. */
  info?: true;
}

const CLI = fileURLToPath(new URL("../src/cli/main.js", import.meta.url));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** The wall time of one `context-kit` process, in ms (its output is discarded; a failure throws). */
export function timeCli(args: readonly string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    env: childEnv(),
    stdio: ["ignore", "ignore", "pipe"],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0 && run.status !== 1) throw new Error(`context-kit ${args.join(" ")}: ${run.stderr}`);
  return ms;
}

const row = (name: string, ms: number, baseline: string, baselineMs: number, target: number): FleetBenchRow => {
  const ratio = Math.round((ms / baselineMs) * 1000) / 1000;
  return { name, ms, baseline, baselineMs, ratio, target, met: ratio <= target };
};

/** A full index of `folder` (a fresh database each time) against `check DIR --json` on the same folder. */
export function fullIndexRow(folder: string, scratch: string, reps = 3): FleetBenchRow {
  const index: number[] = [];
  const check: number[] = [];
  for (let i = 0; i < reps; i++) {
    const db = join(scratch, `full-${i}.duckdb`);
    rmSync(db, { force: true });
    check.push(timeCli(["check", folder, "--json"], scratch));
    index.push(timeCli(["index", folder, "--db", db], scratch));
    rmSync(db, { force: true });
  }
  return row("index DIR (full, process)", median(index), "check DIR --json (process)", median(check), 1.5);
}

/** Re-indexing the unchanged folder against its full index. */
export function unchangedIndexRow(folder: string, scratch: string, reps = 3): FleetBenchRow {
  const db = join(scratch, "unchanged.duckdb");
  rmSync(db, { force: true });
  const full = timeCli(["index", folder, "--db", db], scratch);
  const again: number[] = [];
  for (let i = 0; i < reps; i++) again.push(timeCli(["index", folder, "--db", db], scratch));
  rmSync(db, { force: true });
  return row("index DIR (unchanged, process)", median(again), "index DIR (full, process)", full, 0.05);
}

/**
 * The same, in-process with the database open (a long-running indexer): what the run itself costs without the
 * process start and loading DuckDB, which a `stat` per file cannot beat.
 */
export async function unchangedIndexInProcessRow(folder: string, scratch: string, reps = 3): Promise<FleetBenchRow> {
  const dbPath = join(scratch, "unchanged-in-process.duckdb");
  rmSync(dbPath, { force: true });
  const items = expandInputs([folder], scratch);
  const db = await FleetDb.open(dbPath);
  try {
    let start = process.hrtime.bigint();
    await indexInto(db, dbPath, items);
    const full = Number(process.hrtime.bigint() - start) / 1e6;
    const again: number[] = [];
    for (let i = 0; i < reps; i++) {
      start = process.hrtime.bigint();
      const summary = await indexInto(db, dbPath, items);
      again.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (summary.unchanged !== items.length)
        throw new Error(`not every file was unchanged: ${JSON.stringify(summary)}`);
    }
    return row("index DIR (unchanged, in-process)", median(again), "index DIR (full, in-process)", full, 0.05);
  } finally {
    db.close();
    rmSync(dbPath, { force: true });
  }
}

/**
 * One appended file re-indexed by a whole `context-kit index FILE` process (its database holds that file), against a
 * `replay TAIL --json` process on a file holding only the header and the new tail.
 */
export function appendedIndexProcessRow(source: string, scratch: string, reps = 3, turns = 10): FleetBenchRow {
  const dir = join(scratch, "appended-process");
  mkdirSync(dir, { recursive: true });
  const tail = appendedLines(source, turns);
  const text = readFileSync(source, "utf8");
  writeFileSync(join(dir, "tail.jsonl"), text.slice(0, text.indexOf("\n") + 1) + tail);
  const index: number[] = [];
  const replay: number[] = [];
  for (let i = 0; i < reps; i++) {
    copyFileSync(source, join(dir, "session.jsonl"));
    rmSync(join(dir, "a.duckdb"), { force: true });
    timeCli(["index", "session.jsonl", "--db", "a.duckdb"], dir);
    appendFileSync(join(dir, "session.jsonl"), tail);
    index.push(timeCli(["index", "session.jsonl", "--db", "a.duckdb"], dir));
    replay.push(timeCli(["replay", "tail.jsonl", "--json"], dir));
  }
  rmSync(join(dir, "a.duckdb"), { force: true });
  return row(
    `index FILE (appended ${turns * 3} lines, process)`,
    median(index),
    "replay TAIL --json (process)",
    median(replay),
    2,
  );
}

/** `lines` new whole lines continuing the file's last entry: user turns, replies with a tool call, results. */
export function appendedLines(file: string, turns: number): string {
  const text = readFileSync(file, "utf8").trimEnd();
  let parent = JSON.parse(text.slice(text.lastIndexOf("\n") + 1)).id as string;
  const out: string[] = [];
  for (let n = 0; n < turns; n++) {
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
    const entries = [
      { id: `bu${n}`, message: { role: "user", content: `continue ${n}`, timestamp: n } },
      {
        id: `ba${n}`,
        message: {
          role: "assistant",
          content: [{ type: "toolCall", id: `bc${n}`, name: "read", arguments: { path: `src/file${n}.ts` } }],
          provider: "faux",
          model: "faux-1",
          stopReason: "toolUse",
          timestamp: n,
        },
      },
      {
        id: `br${n}`,
        message: {
          role: "toolResult",
          toolCallId: `bc${n}`,
          toolName: "read",
          content: [{ type: "text", text: `line ${n}` }],
          isError: false,
          timestamp: n,
        },
      },
    ];
    for (const e of entries) {
      out.push(JSON.stringify({ type: "message", id: e.id, parentId: parent, timestamp: at, message: e.message }));
      parent = e.id;
    }
  }
  return `${out.join("\n")}\n`;
}

/**
 * One file appended to (`turns` turns) and re-indexed by its tail, in-process with the database open, against
 * `replay` (in-process) of a file holding only the header and the new tail. The file is a copy in `scratch`.
 */
export async function appendedIndexRow(source: string, scratch: string, reps = 5, turns = 10): Promise<FleetBenchRow> {
  const dir = join(scratch, "appended");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "session.jsonl");
  const tailFile = join(dir, "tail.jsonl");
  const tail = appendedLines(source, turns);
  const header = readFileSync(source, "utf8").slice(0, readFileSync(source, "utf8").indexOf("\n") + 1);
  writeFileSync(tailFile, header + tail);
  const index: number[] = [];
  const replay: number[] = [];
  for (let i = 0; i < reps; i++) {
    copyFileSync(source, file);
    const dbPath = join(dir, `appended-${i}.duckdb`);
    rmSync(dbPath, { force: true });
    const db = await FleetDb.open(dbPath);
    try {
      const items = [{ path: file, shown: "session.jsonl" }];
      await indexInto(db, dbPath, items);
      appendFileSync(file, tail);
      const start = process.hrtime.bigint();
      const summary = await indexInto(db, dbPath, items);
      index.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (summary.appended !== 1)
        throw new Error(`the appended file was not indexed by its tail: ${JSON.stringify(summary)}`);
    } finally {
      db.close();
      rmSync(dbPath, { force: true });
    }
    const start = process.hrtime.bigint();
    replayFile(tailFile, "tail.jsonl");
    replay.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return row(`index FILE (appended ${turns * 3} lines)`, median(index), "replay of the new tail", median(replay), 2);
}

/** The largest `.jsonl` file below `folder`: the appended row's worst case (its prefix is hashed whole). */
export function largestSession(folder: string): string {
  let best = { path: "", size: -1 };
  for (const name of readdirSync(folder)) {
    if (!name.endsWith(".jsonl")) continue;
    const size = statSync(join(folder, name)).size;
    if (size > best.size) best = { path: join(folder, name), size };
  }
  return best.path;
}

export function formatFleetRows(rows: readonly FleetBenchRow[]): string {
  return rows
    .map(
      (r) =>
        `${r.name.padEnd(46)} ${r.ms.toFixed(1).padStart(9)} ms  vs ${r.baseline} ${r.baselineMs.toFixed(1)} ms: ${r.ratio}x ${r.info ? "(context, no target)" : `(target <= ${r.target}x) ${r.met ? "met" : "MISSED"}`}`,
    )
    .join("\n");
}

/**
 * The fleet rows on one folder: a full index, an unchanged re-index and one appended file re-indexed (the targets, as
 * processes), and the appended file in-process (context).
 */
export async function measureFleet(folder: string, scratch: string, reps: number): Promise<FleetBenchRow[]> {
  mkdirSync(scratch, { recursive: true });
  const largest = largestSession(folder);
  const inProcess = await appendedIndexRow(largest, scratch, Math.max(reps, 3));
  return [
    fullIndexRow(folder, scratch, reps),
    unchangedIndexRow(folder, scratch, reps),
    appendedIndexProcessRow(largest, scratch, Math.max(reps, 3)),
    { ...inProcess, name: `${inProcess.name} (in-process)`, info: true },
  ];
}
