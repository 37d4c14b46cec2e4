import { appendFileSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { queryDb, TABLE_DUMP } from "./fleet-db.js";

const ROOT = join(import.meta.dirname, "../..");
const SAMPLES = ["verification-session.jsonl", "branched-school-session.jsonl"];

async function index(dir: string, db: string, ...inputs: string[]) {
  const out = await runCli(["index", ...inputs, "--db", db, "--json"], { cwd: dir });
  expect(out.exitCode, out.stderr).toBe(0);
  return JSON.parse(out.stdout);
}

/** A folder with the samples, and a line appended to each that continues its last entry. */
function folder(): { dir: string; append: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "fleet-memo-"));
  for (const name of SAMPLES) copyFileSync(join(ROOT, "evidence-samples", name), join(dir, name));
  const append = () => {
    for (const name of SAMPLES) {
      const lines = readFileSync(join(dir, name), "utf8").trimEnd().split("\n");
      const last = JSON.parse(lines[lines.length - 1] as string);
      const id = `m${lines.length}`;
      const message = { role: "user", content: `and then ${id}`, timestamp: 1 };
      const entry = { type: "message", id, parentId: last.id, timestamp: "2026-12-04T00:00:00.000Z", message };
      appendFileSync(join(dir, name), `${JSON.stringify(entry)}\n`);
    }
  };
  return { dir, append };
}

async function wholeDump(dir: string) {
  const db = join(mkdtempSync(join(tmpdir(), "fleet-memo-whole-")), "whole.duckdb");
  await index(dir, db, ...SAMPLES);
  return queryDb(db, TABLE_DUMP);
}

describe("the memo beside the database", () => {
  it("is one file per indexed session, and an appended tail is folded from it", async () => {
    const { dir, append } = folder();
    const db = join(dir, "fleet.duckdb");
    await index(dir, db, ...SAMPLES);
    expect(readdirSync(`${db}.memo`)).toHaveLength(SAMPLES.length);
    append();
    expect(await index(dir, db, ...SAMPLES)).toMatchObject({ appended: 2, indexed: 0, reindexed: [] });
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await wholeDump(dir));
  });

  it("missing, damaged or written for another prefix: the file is indexed whole again, and the run says why", async () => {
    const { dir, append } = folder();
    const db = join(dir, "fleet.duckdb");
    await index(dir, db, ...SAMPLES);
    const [first, second] = readdirSync(`${db}.memo`).map((name) => join(`${db}.memo`, name)) as [string, string];
    rmSync(first);
    writeFileSync(second, readFileSync(second, "utf8").slice(0, 100));
    append();
    const reason = "its memo beside the database is missing or out of date";
    const run = await index(dir, db, ...SAMPLES);
    expect(run).toMatchObject({ appended: 0, indexed: 2 });
    expect(run.reindexed).toEqual(SAMPLES.map((file) => ({ file, reason })));
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await wholeDump(dir));

    // A memo of an earlier state of the file (as a run that did not commit could leave) is not this prefix's.
    const kept = readdirSync(`${db}.memo`).map((name) => [name, readFileSync(join(`${db}.memo`, name))] as const);
    append();
    await index(dir, db, ...SAMPLES);
    for (const [name, bytes] of kept) writeFileSync(join(`${db}.memo`, name), bytes);
    append();
    expect((await index(dir, db, ...SAMPLES)).reindexed).toEqual(SAMPLES.map((file) => ({ file, reason })));
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await wholeDump(dir));
  });

  it("of a database that is gone is cleared when a new one is made in its place", async () => {
    const { dir } = folder();
    const db = join(dir, "fleet.duckdb");
    await index(dir, db, ...SAMPLES);
    rmSync(db);
    await index(dir, db, SAMPLES[0] as string);
    expect(readdirSync(`${db}.memo`)).toHaveLength(1);
  });

  it("moved out of a database written before: that database is indexed whole again, its old rows gone", async () => {
    const { dir, append } = folder();
    const db = join(dir, "fleet.duckdb");
    const instance = await DuckDBInstance.create(db);
    const connection = await instance.connect();
    await connection.run(`CREATE TABLE sessions (file VARCHAR, session_id VARCHAR);
      INSERT INTO sessions VALUES ('${SAMPLES[0]}', 'stale');
      CREATE TABLE _memo (file VARCHAR, path VARCHAR, size BIGINT, mtime_ms BIGINT, lines INTEGER, header VARCHAR,
        session VARCHAR, states BLOB, links BLOB);
      INSERT INTO _memo VALUES ('${SAMPLES[0]}', '${join(dir, SAMPLES[0] as string)}', 1, 1, 1, '{}', '[]', '', '');`);
    connection.closeSync();
    instance.closeSync();
    expect(await index(dir, db, ...SAMPLES)).toMatchObject({ indexed: 2, appended: 0 });
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await wholeDump(dir));
    append();
    expect(await index(dir, db, ...SAMPLES)).toMatchObject({ appended: 2 });
  });
});
