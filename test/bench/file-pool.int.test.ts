import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { mapFiles, setSourceHooks, workersAvailable } from "../../src/files/file-pool.js";
import { InputError } from "../../src/files/input-error.js";
import { writeLargeSession } from "../synth/large-session.js";
import { bytesOf, whoRan } from "./fixtures/pool-task.js";

const SAMPLES = join(import.meta.dirname, "../../evidence-samples");
const scratch = mkdtempSync(join(tmpdir(), "ck-pool-"));
const folder = join(scratch, "sessions");

beforeAll(() => {
  setSourceHooks(new URL("./ts-hooks.mjs", import.meta.url).href);
  mkdirSync(join(folder, "nested"), { recursive: true });
  writeLargeSession(join(folder, "a-linear.jsonl"), { entries: 400, seed: 3 });
  writeLargeSession(join(folder, "b-tree.jsonl"), { entries: 300, leaves: 6, seed: 4 });
  for (const name of ["stalled-school-session.jsonl", "branched-school-session.jsonl", "denials-session.jsonl"]) {
    copyFileSync(join(SAMPLES, name), join(folder, "nested", name));
  }
});
afterAll(() => {
  setSourceHooks(null);
  rmSync(scratch, { recursive: true, force: true });
});

const task = { module: new URL("./fixtures/pool-task.ts", import.meta.url).href, name: "whoRan", fn: whoRan };
const items = (names: string[]) => names.map((n) => ({ path: join(scratch, n), shown: n }));

describe("file pool", () => {
  it("runs files on worker threads, one per core at most, and returns results in input order", async () => {
    expect(workersAvailable()).toBe(true);
    const names = Array.from({ length: 9 }, (_, i) => `f${i}`);
    const streamed: number[] = [];
    const progress: number[] = [];
    const results = await mapFiles(task, items(names), {
      onResult: (_, i) => streamed.push(i),
      progress: (done) => progress.push(done),
    });
    expect(results.map((r) => r.shown)).toEqual(names);
    expect(streamed).toEqual(names.map((_, i) => i));
    expect(progress).toEqual(names.map((_, i) => i + 1));
    const threads = new Set(results.map((r) => r.threadId));
    expect(threads.has(threadId)).toBe(false);
    expect(threads.size).toBeLessThanOrEqual(Math.min(availableParallelism(), names.length));
  });

  it("moves a result's own byte arrays to the main thread and copies a view into a buffer the worker reuses", async () => {
    const bytes = { module: task.module, name: "bytesOf", fn: bytesOf };
    const names = Array.from({ length: 12 }, (_, i) => `file-${i}`);
    const results = await mapFiles(bytes, items(names), { workers: 2 });
    const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");
    expect(results.map((r) => text(r.own))).toEqual(names.map((n) => n.repeat(1000)));
    // The view's buffer is the worker's to reuse: were it moved, the worker's later results would come back empty.
    expect(results.map((r) => text(r.reused.view))).toEqual(names.map((n) => `reused:${n}`));
  });

  it("runs a single file in-process", async () => {
    const [result] = await mapFiles(task, items(["only"]));
    expect(result?.threadId).toBe(threadId);
  });

  it("rethrows a bad input from a worker as the command's InputError (exit 2), and other errors as errors", async () => {
    const bad = mapFiles(task, items(["f0", "f1", "bad-input", "f3"]), { workers: 2 });
    await expect(bad).rejects.toBeInstanceOf(InputError);
    await expect(bad).rejects.toMatchObject({ code: "E_READ", message: "bad-input: cannot read (EACCES)" });
    await expect(mapFiles(task, items(["f0", "crash", "f2"]), { workers: 2 })).rejects.toThrow(
      "crash: something broke",
    );
  });
});

describe("folder mode of inspect, check and replay: the pool's results equal the in-process ones", () => {
  it.each(["inspect", "check", "replay"])("%s", async (command) => {
    const pooled = await runCli([command, "sessions", "--json"], { cwd: scratch });
    expect(pooled.stderr).toBe("");
    expect(pooled.exitCode).toBe(0);
    const fromPool = JSON.parse(pooled.stdout).files as { file: string }[];
    expect(fromPool.map((f) => f.file)).toEqual([
      "sessions/a-linear.jsonl",
      "sessions/b-tree.jsonl",
      "sessions/nested/branched-school-session.jsonl",
      "sessions/nested/denials-session.jsonl",
      "sessions/nested/stalled-school-session.jsonl",
    ]);
    for (const entry of fromPool) {
      const alone = await runCli([command, entry.file, "--json"], { cwd: scratch });
      const inProcess = JSON.parse(alone.stdout);
      // One shape whatever the number of files: {files: [...], summary}.
      expect(entry).toEqual(inProcess.files[0]);
    }
  });

  it("replay of several files gives {files: [...]} and refuses --leaf", async () => {
    const out = await runCli(["replay", "sessions/a-linear.jsonl", "sessions/b-tree.jsonl", "--json"], {
      cwd: scratch,
    });
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout).files.map((f: { branches: unknown[] }) => f.branches.length)).toEqual([1, 6]);
    const leaf = await runCli(["replay", "sessions", "--leaf", "x"], { cwd: scratch });
    expect(leaf.exitCode).toBe(2);
    expect(leaf.stderr).toContain("--leaf needs exactly one session file");
  });
});
