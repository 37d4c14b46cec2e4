import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { manifestPath, writeManifest } from "../../src/fleet/manifest.js";
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
      const path = join(dir, name);
      appendTurn(path, `m${readFileSync(path, "utf8").trimEnd().split("\n").length}`);
    }
  };
  return { dir, append };
}

/** A user turn appended to the file, continuing its last entry. */
function appendTurn(path: string, id: string) {
  const last = JSON.parse(readFileSync(path, "utf8").trimEnd().split("\n").pop() as string);
  const message = { role: "user", content: `and then ${id}`, timestamp: 1 };
  const entry = { type: "message", id, parentId: last.id, timestamp: "2026-12-04T00:00:00.000Z", message };
  appendFileSync(path, `${JSON.stringify(entry)}\n`);
}

async function wholeDump(dir: string, files: readonly string[] = SAMPLES) {
  const db = join(mkdtempSync(join(tmpdir(), "fleet-memo-whole-")), "whole.duckdb");
  await index(dir, db, ...files);
  return queryDb(db, TABLE_DUMP);
}

/** The memo folder's names, sorted. */
const names = (db: string) => readdirSync(`${db}.memo`).sort();

/** The places a pack's memos lie at, by file. */
const places = (db: string, pack: number): Record<string, [number, number]> =>
  JSON.parse(readFileSync(join(`${db}.memo`, `${pack}.json`), "utf8"));

describe("the memo beside the database", () => {
  it("is one pack per run with the places of its memos; an appended tail is folded from it, and the pack it replaced goes", async () => {
    const { dir, append } = folder();
    const db = join(dir, "fleet.duckdb");
    await index(dir, db, ...SAMPLES);
    expect(names(db)).toEqual(["1.json", "1.pack"]);
    expect(Object.keys(places(db, 1)).sort()).toEqual([...SAMPLES].sort());
    append();
    expect(await index(dir, db, ...SAMPLES)).toMatchObject({ appended: 2, indexed: 0, reindexed: [] });
    expect(names(db)).toEqual(["2.json", "2.pack"]);
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await wholeDump(dir));
  });

  it("missing, damaged or written for another prefix: the file is indexed whole again, and the run says why", async () => {
    const { dir, append } = folder();
    const db = join(dir, "fleet.duckdb");
    await index(dir, db, ...SAMPLES);
    const [first, second] = SAMPLES as [string, string];
    const { [first]: _gone, ...rest } = places(db, 1);
    writeFileSync(join(`${db}.memo`, "1.json"), JSON.stringify(rest));
    const pack = readFileSync(join(`${db}.memo`, "1.pack"));
    const [offset, length] = rest[second] as [number, number];
    pack.fill(0x20, offset + 10, offset + length);
    writeFileSync(join(`${db}.memo`, "1.pack"), pack);
    append();
    const reason = "its memo beside the database is missing or out of date";
    const run = await index(dir, db, ...SAMPLES);
    expect(run).toMatchObject({ appended: 0, indexed: 2 });
    expect(run.reindexed).toEqual(SAMPLES.map((file) => ({ file, reason })));
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await wholeDump(dir));

    // A pack of an earlier state of the files (as a run that did not commit could leave) is not this prefix's.
    const kept = names(db).map((name) => [name, readFileSync(join(`${db}.memo`, name))] as const);
    append();
    await index(dir, db, ...SAMPLES);
    rmSync(`${db}.memo`, { recursive: true });
    mkdirSync(`${db}.memo`);
    for (const [name, bytes] of kept) writeFileSync(join(`${db}.memo`, name), bytes);
    append();
    expect((await index(dir, db, ...SAMPLES)).reindexed).toEqual(SAMPLES.map((file) => ({ file, reason })));
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await wholeDump(dir));
  });

  it("of an earlier version of the kit's state is not read: the file is indexed whole again", async () => {
    const { dir, append } = folder();
    const db = join(dir, "fleet.duckdb");
    await index(dir, db, ...SAMPLES);
    const pack = join(`${db}.memo`, "1.pack");
    const text = readFileSync(pack, "latin1");
    expect(text.match(/\{"v":3,/g)).toHaveLength(SAMPLES.length);
    writeFileSync(pack, text.replaceAll('{"v":3,', '{"v":2,'), "latin1");
    append();
    const reason = "its memo beside the database is missing or out of date";
    expect((await index(dir, db, ...SAMPLES)).reindexed).toEqual(SAMPLES.map((file) => ({ file, reason })));
  });

  it("stays within eight packs: past them the memos in use are gathered into one, and tails still fold from it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-memo-packs-"));
    const files = Array.from({ length: 10 }, (_, i) => `s${i}.jsonl`);
    for (const name of files) copyFileSync(join(ROOT, "evidence-samples", SAMPLES[0] as string), join(dir, name));
    const db = join(dir, "fleet.duckdb");
    await index(dir, db, ...files);
    const packs: number[] = [];
    for (const name of files.slice(1)) {
      appendTurn(join(dir, name), "tail1");
      expect(await index(dir, db, ...files)).toMatchObject({ appended: 1, indexed: 0, reindexed: [] });
      packs.push(names(db).filter((n) => n.endsWith(".pack")).length);
    }
    // One pack per run while each is still read from; the ninth is gathered with the others into one.
    expect(packs).toEqual([2, 3, 4, 5, 6, 7, 8, 1, 2]);
    expect(Object.keys(places(db, 10)).sort()).toEqual([...files].sort());
    appendTurn(join(dir, files[0] as string), "tail2");
    expect(await index(dir, db, ...files)).toMatchObject({ appended: 1, indexed: 0, reindexed: [] });
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await wholeDump(dir, files));
  });

  it("of a database that is gone is cleared when a new one is made in its place; leftovers of a failed run go", async () => {
    const { dir } = folder();
    const db = join(dir, "fleet.duckdb");
    await index(dir, db, ...SAMPLES);
    rmSync(db);
    await index(dir, db, SAMPLES[0] as string);
    expect(Object.keys(places(db, 1))).toEqual([SAMPLES[0]]);
    const leftovers = ["7.pack", "1.json.tmp", `${"ab".repeat(20)}.json`];
    for (const name of leftovers) writeFileSync(join(`${db}.memo`, name), "x");
    await index(dir, db, ...SAMPLES);
    expect(names(db)).toEqual(["1.json", "1.pack", "2.json", "2.pack"]);
    expect(Object.keys(places(db, 2))).toEqual([SAMPLES[1]]);
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

  it("a database written before, with a manifest that calls one of its files unchanged: every file is indexed whole", async () => {
    const { dir } = folder();
    const db = join(dir, "fleet.duckdb");
    const instance = await DuckDBInstance.create(db);
    const connection = await instance.connect();
    await connection.run(`CREATE TABLE _memo (file VARCHAR, path VARCHAR, size BIGINT, mtime_ms BIGINT, lines INTEGER,
        header VARCHAR, session VARCHAR, states BLOB, links BLOB);`);
    connection.closeSync();
    instance.closeSync();
    const first = join(dir, SAMPLES[0] as string);
    const stat = statSync(first);
    writeManifest(db, { [SAMPLES[0] as string]: [first, stat.size, Math.trunc(stat.mtimeMs), stat.size, ""] });

    expect(await index(dir, db, ...SAMPLES)).toMatchObject({ indexed: 2, unchanged: 0 });
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await wholeDump(dir));
    expect(Object.keys(JSON.parse(readFileSync(manifestPath(db), "utf8")).files).sort()).toEqual([...SAMPLES].sort());
  });
});
