import { spawnSync } from "node:child_process";
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { codeCachePath } from "../../src/fleet/code-cache.js";
import { duckdb, FleetDb, loadedBundle } from "../../src/fleet/db.js";
import { emptyRows } from "../../src/fleet/tables.js";
import { queryDb, TABLE_DUMP } from "./fleet-db.js";

const ROOT = join(import.meta.dirname, "../..");
const SAMPLE = join(ROOT, "evidence-samples/verification-session.jsonl");
const require = createRequire(import.meta.url);

async function index(cwd: string, db: string, file: string) {
  const out = await runCli(["index", file, "--db", db, "--json"], { cwd });
  expect(out.exitCode, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as { indexed: number; appended: number };
}

const blockSize = async (db: string) =>
  (await queryDb(db, ["SELECT block_size FROM pragma_database_size()"]))[0]?.[0]?.block_size;

/** One more user turn continuing the file's last entry. */
function appendTurn(file: string): void {
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  const parentId = JSON.parse(lines[lines.length - 1] as string).id;
  const entry = { type: "message", id: "zz-appended", parentId, timestamp: "2026-12-05T00:00:00.000Z" };
  appendFileSync(file, `${JSON.stringify({ ...entry, message: { role: "user", content: "go on", timestamp: 1 } })}\n`);
}

describe("the fleet database's storage", () => {
  it("creates databases with 128 KiB blocks, and appends to one made with DuckDB's default blocks as to its own", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ck-db-storage-"));
    copyFileSync(SAMPLE, join(dir, "s.jsonl"));
    const made = join(dir, "made.duckdb");
    (await DuckDBInstance.create(made)).closeSync();
    const fresh = join(dir, "fresh.duckdb");

    expect(await index(dir, made, "s.jsonl")).toMatchObject({ indexed: 1 });
    appendTurn(join(dir, "s.jsonl"));
    expect(await index(dir, made, "s.jsonl")).toMatchObject({ appended: 1 });
    expect(await index(dir, fresh, "s.jsonl")).toMatchObject({ indexed: 1 });

    expect(await blockSize(fresh)).toBe(131_072);
    expect(await blockSize(made)).toBe(262_144);
    expect(await queryDb(made, TABLE_DUMP)).toEqual(await queryDb(fresh, TABLE_DUMP));
  });

  it("writes the full row groups of a database made with a row group size while the rows go in, before the commit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ck-db-rowgroups-"));
    const rows = emptyRows();
    for (let i = 0; i < 5000; i++) {
      rows.tool_calls.push(["s.jsonl", `e${i}`, `r${i}`, `c${i}`, "bash", "0".repeat(64), false, null, false, null]);
    }
    /** Bytes of the file before the transaction, once its rows are in, and after the commit; its row groups. */
    const insert = async (path: string, rowGroupSize?: number) => {
      const db = await FleetDb.open(path, rowGroupSize === undefined ? {} : { rowGroupSize });
      await db.run("CHECKPOINT");
      const before = statSync(path).size;
      await db.run("BEGIN TRANSACTION");
      await db.append(rows);
      const inserted = statSync(path).size;
      await db.run("COMMIT");
      const groups = await db.query<{ n: bigint }>(
        "SELECT max(count) AS n FROM pragma_storage_info('tool_calls') GROUP BY row_group_id ORDER BY row_group_id",
      );
      db.close();
      return { written: inserted > before, groups: groups.map((g) => Number(g.n)) };
    };
    expect(await insert(join(dir, "small.duckdb"), 2048)).toEqual({ written: true, groups: [2048, 2048, 904] });
    expect(await insert(join(dir, "default.duckdb"))).toEqual({ written: false, groups: [5000] });
  });

  it("loads the build's one-file bundle of @duckdb/node-api when it is of the installed version", async () => {
    const { version } = require("@duckdb/node-api/package.json") as { version: string };
    const bundle = join(ROOT, "dist", `duckdb-api-${version}.cjs`);
    expect(existsSync(bundle), "npm run build writes the bundle").toBe(true);
    const api = await duckdb();
    expect(loadedBundle()?.path).toBe(bundle);
    expect(api).not.toBe(require("@duckdb/node-api"));
    expect(Object.keys(api).sort()).toEqual(Object.keys(require("@duckdb/node-api")).sort());
    const instance = await api.DuckDBInstance.create(":memory:");
    const reader = await (await instance.connect()).runAndReadAll("SELECT 41 + 1 AS n");
    expect(reader.getRowObjectsJS()).toEqual([{ n: 42 }]);
    instance.closeSync();
  });

  it("loads the bundle with the code V8 compiled of it at build time, in a Node of that V8, and without it in another", () => {
    const { version } = require("@duckdb/node-api/package.json") as { version: string };
    const bundle = join(ROOT, "dist", `duckdb-api-${version}.cjs`);
    const caches = readdirSync(join(ROOT, "dist")).filter((name) => name.startsWith(`duckdb-api-${version}.cjs.v8-`));
    expect(caches, "npm run build writes the code cache for the Node that ran it").toHaveLength(1);
    const script = `
      const { duckdb, loadedBundle } = await import(${JSON.stringify(join(ROOT, "dist/src/fleet/db.js"))});
      const api = await duckdb();
      const instance = await api.DuckDBInstance.create(":memory:");
      instance.closeSync();
      console.log(JSON.stringify({ cacheUsed: loadedBundle().cacheUsed, v8: process.versions.v8 }));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const { cacheUsed, v8 } = JSON.parse(run.stdout) as { cacheUsed: boolean; v8: string };
    const ours = existsSync(codeCachePath(bundle).replace(process.versions.v8, v8));
    // The main lane's Node built the cache; a lane on another Node has none of its own and compiles the bundle.
    expect(cacheUsed).toBe(ours);
    if (process.versions.node.startsWith("20.")) expect(cacheUsed).toBe(true);
  });
});
