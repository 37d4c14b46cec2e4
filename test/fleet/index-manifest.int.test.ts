import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { appendedLines } from "../../bench/fleet.js";
import { runCli } from "../../src/cli/run.js";
import { FleetDb } from "../../src/fleet/db.js";
import { manifestPath } from "../../src/fleet/manifest.js";
import { queryDb, TABLE_DUMP } from "./fleet-db.js";

const SAMPLES = join(import.meta.dirname, "../../evidence-samples");
const FILES = ["verification-session.jsonl", "denials-session.jsonl", "branched-school-session.jsonl"];

/** A folder of three sample sessions and a database path beside it. */
function fleetFolder(): { dir: string; db: string } {
  const dir = mkdtempSync(join(tmpdir(), "fleet-manifest-"));
  for (const name of FILES) copyFileSync(join(SAMPLES, name), join(dir, name));
  return { dir, db: join(dir, "fleet.duckdb") };
}

async function index(dir: string, db: string) {
  const out = await runCli(["index", ...FILES, "--db", db, "--json"], { cwd: dir });
  expect(out.exitCode, out.stderr).toBe(0);
  return JSON.parse(out.stdout);
}

/** The same files indexed whole into a fresh database. */
async function freshDump(dir: string) {
  const fresh = mkdtempSync(join(dir, "fresh-"));
  for (const name of FILES) copyFileSync(join(dir, name), join(fresh, name));
  await index(fresh, join(fresh, "fresh.duckdb"));
  return queryDb(join(fresh, "fresh.duckdb"), TABLE_DUMP);
}

function manifestFiles(db: string): Record<string, unknown[]> {
  return JSON.parse(readFileSync(manifestPath(db), "utf8")).files;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the stat manifest beside the database", () => {
  it("answers an unchanged folder without opening the database, and is written after every run", async () => {
    const { dir, db } = fleetFolder();
    const open = vi.spyOn(FleetDb, "open");
    expect(await index(dir, db)).toMatchObject({ indexed: 3, unchanged: 0 });
    expect(open).toHaveBeenCalledTimes(1);
    const [sessions] = await queryDb(db, ["SELECT file, indexed_bytes, sha256 FROM sessions ORDER BY file"]);
    const files = manifestFiles(db);
    expect(Object.keys(files).sort()).toEqual([...FILES].sort());
    for (const row of sessions ?? []) {
      const entry = files[row.file as string] as unknown[];
      expect(entry[0]).toBe(join(dir, row.file as string));
      expect(entry.slice(3)).toEqual([row.indexed_bytes, row.sha256]);
    }

    open.mockClear();
    expect(await index(dir, db)).toMatchObject({ indexed: 0, appended: 0, unchanged: 3 });
    expect(open).not.toHaveBeenCalled();
  });

  it("an appended file indexes its tail, a rewritten one whole; both equal a whole index and refresh the manifest", async () => {
    const { dir, db } = fleetFolder();
    await index(dir, db);
    const appended = join(dir, FILES[0] as string);
    appendFileSync(appended, appendedLines(appended, 2));
    const open = vi.spyOn(FleetDb, "open");
    expect(await index(dir, db)).toMatchObject({ indexed: 0, appended: 1, unchanged: 2, reindexed: [] });
    expect(open).toHaveBeenCalledTimes(1);
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await freshDump(dir));
    expect(manifestFiles(db)[FILES[0] as string]?.[1]).toBe(readFileSync(appended).length);
    // Only the appended file's entry was read back from the database: the others were kept; all agree with it.
    const merged = manifestFiles(db);
    rmSync(`${db}.files.json`);
    expect(await index(dir, db)).toMatchObject({ unchanged: 3 });
    expect(manifestFiles(db)).toEqual(merged);
    // The tail stayed in the write-ahead log; the manifest knows it, so the next run still costs a stat per file.
    expect(existsSync(`${db}.wal`)).toBe(true);
    open.mockClear();
    expect(await index(dir, db)).toMatchObject({ unchanged: 3 });
    expect(open).not.toHaveBeenCalled();

    const rewritten = join(dir, FILES[1] as string);
    const text = readFileSync(rewritten, "utf8");
    writeFileSync(rewritten, text.replace(/"timestamp":"2/, '"timestamp":"1'));
    expect(await index(dir, db)).toMatchObject({
      indexed: 1,
      appended: 0,
      reindexed: [{ file: FILES[1], reason: "its indexed part was rewritten" }],
    });
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await freshDump(dir));

    open.mockClear();
    expect(await index(dir, db)).toMatchObject({ unchanged: 3 });
    expect(open).not.toHaveBeenCalled();
  });

  it("a deleted or corrupt manifest is rebuilt from the database", async () => {
    const { dir, db } = fleetFolder();
    await index(dir, db);
    const written = readFileSync(manifestPath(db), "utf8");
    const open = vi.spyOn(FleetDb, "open");
    for (const damage of [
      () => rmSync(manifestPath(db)),
      () => writeFileSync(manifestPath(db), written.slice(0, 40)),
      () => writeFileSync(manifestPath(db), JSON.stringify({ version: 1, db: null, files: {} })),
    ]) {
      damage();
      open.mockClear();
      expect(await index(dir, db)).toMatchObject({ indexed: 0, unchanged: 3 });
      expect(open).toHaveBeenCalledTimes(1);
      expect(manifestFiles(db)).toEqual(JSON.parse(written).files);
    }
  });

  it("a manifest the database no longer agrees with is ignored, and the folder is checked against the database", async () => {
    const { dir, db } = fleetFolder();
    await index(dir, db);
    const stale = readFileSync(manifestPath(db), "utf8");
    // The database changes behind the manifest's back: one file's rows are gone.
    const forgotten = FILES[2] as string;
    const direct = await FleetDb.open(db);
    await direct.forget(forgotten);
    direct.close();
    writeFileSync(manifestPath(db), stale);

    expect(await index(dir, db)).toMatchObject({ indexed: 1, unchanged: 2 });
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await freshDump(dir));
    expect(Object.keys(manifestFiles(db)).sort()).toEqual([...FILES].sort());
    expect(existsSync(`${manifestPath(db)}.tmp`)).toBe(false);
  });

  it("a write-ahead log written behind the manifest's back makes it stale too", async () => {
    const { dir, db } = fleetFolder();
    await index(dir, db);
    const appended = join(dir, FILES[0] as string);
    appendFileSync(appended, appendedLines(appended, 1));
    expect(await index(dir, db)).toMatchObject({ appended: 1 });
    const stale = readFileSync(manifestPath(db), "utf8");
    const forgotten = FILES[1] as string;
    const direct = await FleetDb.open(db);
    await direct.forget(forgotten);
    await direct.closeWithoutCheckpoint();
    writeFileSync(manifestPath(db), stale);

    expect(await index(dir, db)).toMatchObject({ indexed: 1, unchanged: 2 });
    expect(await queryDb(db, TABLE_DUMP)).toEqual(await freshDump(dir));
  });
});
