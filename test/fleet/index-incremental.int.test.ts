import { spawn } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { queryDb, TABLE_DUMP } from "./fleet-db.js";

const ROOT = join(import.meta.dirname, "../..");
const SAMPLE = join(ROOT, "evidence-samples/verification-session.jsonl");

async function index(dir: string, db: string, ...inputs: string[]) {
  const out = await runCli(["index", ...inputs, "--db", db, "--json"], { cwd: dir });
  expect(out.exitCode, out.stderr).toBe(0);
  return JSON.parse(out.stdout);
}

/** The same file indexed whole into a fresh database: what the incremental runs must equal. */
async function freshDump(dir: string, file: string) {
  const db = join(mkdtempSync(join(dir, "fresh-")), "fresh.duckdb");
  const copy = join(db, "..", "s.jsonl");
  copyFileSync(join(dir, file), copy);
  await index(join(db, ".."), db, "s.jsonl");
  return queryDb(db, TABLE_DUMP);
}

function lastId(path: string): string {
  const lines = readFileSync(path, "utf8").trimEnd().split("\n");
  return JSON.parse(lines[lines.length - 1] as string).id;
}

/** A user turn and an assistant reply with a tool call, then its result: three whole lines continuing the leaf. */
function turn(parent: string, n: number): string[] {
  const t = (s: number) => new Date(Date.UTC(2026, 11, 2, 0, 0, s + n * 10)).toISOString();
  return [
    {
      type: "message",
      id: `u${n}`,
      parentId: parent,
      timestamp: t(0),
      message: { role: "user", content: `step ${n}`, timestamp: 1 },
    },
    {
      type: "message",
      id: `a${n}`,
      parentId: `u${n}`,
      timestamp: t(1),
      message: {
        role: "assistant",
        content: [{ type: "toolCall", id: `call${n}`, name: "read", arguments: { path: `f${n}.ts` } }],
        provider: "faux",
        model: "faux-1",
        usage: { input: 10, output: 2 },
        stopReason: "toolUse",
        timestamp: 2,
      },
    },
    {
      type: "message",
      id: `r${n}`,
      parentId: `a${n}`,
      timestamp: t(2),
      message: {
        role: "toolResult",
        toolCallId: `call${n}`,
        toolName: "read",
        content: [{ type: "text", text: "no" }],
        isError: true,
        timestamp: 3,
      },
    },
  ].map((e) => `${JSON.stringify(e)}\n`);
}

describe("index, run again: unchanged, appended, rewritten, torn, bad", () => {
  it("skips an unchanged file, folds only an appended tail, and equals a whole index of the same bytes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-incr-"));
    const db = join(dir, "fleet.duckdb");
    copyFileSync(SAMPLE, join(dir, "s.jsonl"));
    expect(await index(dir, db, "s.jsonl")).toMatchObject({ indexed: 1, appended: 0, unchanged: 0 });
    // A whole index is checkpointed into the database file.
    expect(existsSync(`${db}.wal`)).toBe(false);
    expect(await index(dir, db, "s.jsonl")).toMatchObject({ indexed: 0, appended: 0, unchanged: 1 });

    // The call is in one run, its result in the next: the row is completed, not duplicated.
    const lines = turn(lastId(join(dir, "s.jsonl")), 1);
    appendFileSync(join(dir, "s.jsonl"), lines.slice(0, 2).join(""));
    expect(await index(dir, db, "s.jsonl")).toMatchObject({ indexed: 0, appended: 1, reindexed: [] });
    // A tail stays in DuckDB's write-ahead log; every later reader (and the next run) reads it back.
    expect(existsSync(`${db}.wal`)).toBe(true);
    appendFileSync(join(dir, "s.jsonl"), lines[2] as string);
    expect(await index(dir, db, "s.jsonl")).toMatchObject({ appended: 1 });
    const [calls] = await queryDb(db, ["SELECT * FROM tool_calls WHERE call_id = 'call1'"]);
    expect(calls).toEqual([expect.objectContaining({ is_error: true, result_entry_id: "r1", request_id: "a1" })]);
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await freshDump(dir, "s.jsonl"));
  });

  it("indexes a rewritten file whole again and says so", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-rewrite-"));
    const db = join(dir, "fleet.duckdb");
    copyFileSync(SAMPLE, join(dir, "s.jsonl"));
    await index(dir, db, "s.jsonl");
    const text = readFileSync(join(dir, "s.jsonl"), "utf8");
    writeFileSync(
      join(dir, "s.jsonl"),
      `${text.replace("faux-1", "faux-2")}${turn(lastId(join(dir, "s.jsonl")), 2).join("")}`,
    );
    const run = await index(dir, db, "s.jsonl");
    expect(run).toMatchObject({
      indexed: 1,
      appended: 0,
      reindexed: [{ file: "s.jsonl", reason: "its indexed part was rewritten" }],
    });
    const [sessions] = await queryDb(db, ["SELECT count(*)::INTEGER AS n FROM sessions"]);
    expect(sessions?.[0]?.n).toBe(1);
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await freshDump(dir, "s.jsonl"));
  });

  it("never reads past a torn tail: a half-written line waits for the next run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-torn-"));
    const db = join(dir, "fleet.duckdb");
    const file = join(dir, "s.jsonl");
    copyFileSync(SAMPLE, file);
    const whole = readFileSync(file).length;
    const [line] = turn(lastId(file), 3);
    appendFileSync(file, (line as string).slice(0, 40));
    await index(dir, db, "s.jsonl");
    const [sessions, torn] = await queryDb(db, [
      "SELECT indexed_bytes, entries FROM sessions",
      "SELECT code FROM diagnostics WHERE code = 'W_TORN_TAIL'",
    ]);
    expect(sessions?.[0]?.indexed_bytes).toBe(whole);
    expect(torn).toHaveLength(1);
    appendFileSync(file, (line as string).slice(40));
    expect(await index(dir, db, "s.jsonl")).toMatchObject({ appended: 1 });
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await freshDump(dir, "s.jsonl"));
  });

  it("indexes a file while another process appends to it, and catches up to a whole index afterwards", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-live-"));
    const db = join(dir, "fleet.duckdb");
    const file = join(dir, "s.jsonl");
    copyFileSync(SAMPLE, file);
    const lines = Array.from({ length: 60 }, (_, i) => i + 10).flatMap((n, i, all) =>
      turn(i === 0 ? lastId(file) : `r${all[i - 1]}`, n),
    );
    // Writes each line in two pieces, so the index may well see a torn tail.
    const writer = spawn(
      process.execPath,
      [
        "-e",
        `const fs = require("node:fs"); const lines = JSON.parse(process.argv[1]); let i = 0;
         const step = () => { if (i >= lines.length) return; const l = lines[i++]; const h = l.length >> 1;
           fs.appendFileSync(${JSON.stringify(file)}, l.slice(0, h)); setTimeout(() => { fs.appendFileSync(${JSON.stringify(file)}, l.slice(h)); setTimeout(step, 1); }, 1); };
         step();`,
        JSON.stringify(lines),
      ],
      { stdio: "ignore" },
    );
    const done = new Promise((resolve) => writer.on("exit", resolve));
    let runs = 0;
    let appended = 0;
    while (writer.exitCode === null && runs < 20) {
      appended += (await index(dir, db, "s.jsonl")).appended;
      runs++;
    }
    await done;
    appended += (await index(dir, db, "s.jsonl")).appended;
    expect(appended).toBeGreaterThanOrEqual(1);
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await freshDump(dir, "s.jsonl"));
    const [requests] = await queryDb(db, ["SELECT count(*)::INTEGER AS n FROM requests WHERE request_id LIKE 'a%'"]);
    expect(requests?.[0]?.n).toBeGreaterThanOrEqual(60);
  });

  it("puts bad and unreadable files in diagnostics and indexes the others", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-bad-"));
    const folder = join(dir, "sessions");
    mkdirSync(folder);
    const db = join(dir, "fleet.duckdb");
    copyFileSync(SAMPLE, join(folder, "good.jsonl"));
    writeFileSync(join(folder, "garbage.jsonl"), "this is not json\n");
    const lines = readFileSync(SAMPLE, "utf8").split("\n");
    lines.splice(5, 0, "{broken");
    writeFileSync(join(folder, "damaged.jsonl"), lines.join("\n"));
    symlinkSync(join(dir, "missing.jsonl"), join(folder, "gone.jsonl"));
    const run = await index(dir, db, "sessions");
    expect(run).toMatchObject({ files: 4, indexed: 2, unreadable: 2 });
    const [sessions, diagnostics] = await queryDb(db, [
      "SELECT file, status FROM sessions ORDER BY file",
      "SELECT file, line, code FROM diagnostics ORDER BY file, line",
    ]);
    expect(sessions).toEqual([
      { file: "sessions/damaged.jsonl", status: "errors" },
      { file: "sessions/garbage.jsonl", status: "unreadable" },
      { file: "sessions/gone.jsonl", status: "unreadable" },
      { file: "sessions/good.jsonl", status: "ok" },
    ]);
    expect(diagnostics).toContainEqual({ file: "sessions/damaged.jsonl", line: 6, code: "E_JSON" });
    expect(diagnostics).toContainEqual({ file: "sessions/gone.jsonl", line: 0, code: "E_READ" });
    expect(diagnostics?.some((d) => d.file === "sessions/garbage.jsonl")).toBe(true);
    // Run again: nothing changed, nothing is duplicated.
    expect(await index(dir, db, "sessions")).toMatchObject({ unchanged: 3 });
    const [count] = await queryDb(db, ["SELECT count(*)::INTEGER AS n FROM sessions"]);
    expect(count?.[0]?.n).toBe(4);
  });

  it("refuses a path named that does not exist, and a --db that names a file of other data, writing nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-refused-"));
    copyFileSync(SAMPLE, join(dir, "good.jsonl"));
    const typo = await runCli(["index", "good.jsonl", "sesions", "--db", "fleet.duckdb"], { cwd: dir });
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain("E_READ: sesions: no such file or folder");
    expect(existsSync(join(dir, "fleet.duckdb"))).toBe(false);
    const exported = await runCli(["export", "sesions", "--parquet", "out"], { cwd: dir });
    expect(exported.exitCode).toBe(2);
    expect(existsSync(join(dir, "out"))).toBe(false);
    // DuckDB opens a session file as an empty database in memory: the run would index into nothing.
    const before = readFileSync(join(dir, "good.jsonl"));
    for (const args of [
      ["index", "good.jsonl", "--db", "good.jsonl"],
      ["stats", "good.jsonl"],
    ]) {
      const out = await runCli(args, { cwd: dir });
      expect(out.exitCode, args.join(" ")).toBe(2);
      expect(out.stderr).toMatch(/E_DB: .*good\.jsonl: not a DuckDB database/);
    }
    expect(readFileSync(join(dir, "good.jsonl")).equals(before)).toBe(true);
    expect(existsSync(join(dir, "good.jsonl.files.json"))).toBe(false);
    expect(existsSync(join(dir, "good.jsonl.memo"))).toBe(false);
  });

  it("takes a file named another way (absolute, ./, twice) for the one it holds, with or without the manifest", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-names-"));
    mkdirSync(join(dir, "sessions"));
    copyFileSync(SAMPLE, join(dir, "sessions", "a.jsonl"));
    const db = join(dir, "fleet.duckdb");
    expect(await index(dir, db, "sessions")).toMatchObject({ files: 1, indexed: 1 });
    const absolute = join(dir, "sessions", "a.jsonl");
    expect(await index(dir, db, absolute, "./sessions/a.jsonl", "sessions")).toMatchObject({ files: 1, unchanged: 1 });
    rmSync(`${db}.files.json`);
    expect(await index(dir, db, absolute)).toMatchObject({ files: 1, unchanged: 1 });
    appendFileSync(absolute, turn(lastId(absolute), 1).join(""));
    expect(await index(dir, db, join(dir, "sessions"))).toMatchObject({ files: 1, appended: 1 });
    const [sessions] = await queryDb(db, ["SELECT file FROM sessions"]);
    expect(sessions).toEqual([{ file: "sessions/a.jsonl" }]);
  });
});
