import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { PendingRows } from "../../src/fleet/index-batches.js";
import { queryDb } from "./fleet-db.js";

const SAMPLES = join(import.meta.dirname, "../../evidence-samples");
const bytes = (text: string) => new TextEncoder().encode(text);
/** The sample a copy was made of, from its file's name (`NNN-sample.jsonl`). */
const SAMPLE_OF = (column: string) => `regexp_extract(${column}, '[0-9]{3}-([^/]+)$', 1)`;

describe("rows waiting for their insert", () => {
  it("name their files from the first file taken since the last write, and a write empties them", () => {
    const pending = new PendingRows();
    pending.file("a.jsonl", 3);
    pending.add("sessions", bytes("3,x\n"));
    pending.file("b.jsonl", 4);
    pending.add("sessions", bytes("4,y\n"));
    pending.add("branches", bytes("4,z\n"));
    expect(pending.bytes).toBe(12);
    const dir = mkdtempSync(join(tmpdir(), "ck-pending-"));
    const first = pending.write(dir, "0");
    expect(first.numbers).toEqual({ first: 3, names: ["a.jsonl", "b.jsonl"] });
    expect(first.files.map(([name, path]) => [name, readFileSync(path, "utf8")])).toEqual([
      ["sessions", "3,x\n4,y\n"],
      ["branches", "4,z\n"],
    ]);
    expect(pending.bytes).toBe(0);

    pending.file("c.jsonl", 5);
    pending.add("sessions", bytes("5,w\n"));
    const second = pending.write(dir, "1");
    expect(second.numbers).toEqual({ first: 5, names: ["c.jsonl"] });
    expect(second.files).toHaveLength(1);
  });
});

describe("a folder indexed in several batches", () => {
  it("names every row's file rightly, the tables of a row a file inserted once beside the batches of the others", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ck-batches-"));
    const samples = readdirSync(SAMPLES).filter((name) => name.endsWith(".jsonl"));
    const copies = Math.ceil(300 / samples.length);
    for (let k = 0; k < copies; k++) {
      for (const name of samples) copyFileSync(join(SAMPLES, name), join(dir, `${String(k).padStart(3, "0")}-${name}`));
    }
    const db = join(dir, "fleet.duckdb");
    const run = await runCli(["index", dir, "--db", db, "--json"], { cwd: dir });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ indexed: copies * samples.length });

    const [sessions, perSample] = await queryDb(db, [
      "SELECT file, session_id FROM sessions ORDER BY file",
      `SELECT ${SAMPLE_OF("s.file")} AS sample, count(DISTINCT s.session_id)::INTEGER AS ids,
         count(*)::INTEGER AS files,
         sum((SELECT count(*) FROM requests r WHERE r.file = s.file))::INTEGER AS requests,
         sum((SELECT count(*) FROM branches b WHERE b.file = s.file))::INTEGER AS branches
       FROM sessions s GROUP BY ALL ORDER BY sample`,
    ]);
    expect(sessions).toHaveLength(copies * samples.length);
    for (const row of sessions ?? []) {
      const sample = (/\d{3}-([^/]+)$/.exec(String(row.file)) as RegExpExecArray)[1] as string;
      const header = JSON.parse(readFileSync(join(SAMPLES, sample), "utf8").split("\n")[0] as string);
      expect(row.session_id, String(row.file)).toBe(header.id);
    }
    // Every copy of a sample holds what the sample holds, whichever batch it was in.
    const single = join(dir, "one.duckdb");
    const one = await runCli(["index", SAMPLES, "--db", single, "--json"], { cwd: dir });
    expect(one.exitCode, one.stderr).toBe(0);
    const [alone] = await queryDb(single, [
      `SELECT regexp_extract(s.file, '[^/]+$') AS sample,
         (SELECT count(*) FROM requests r WHERE r.file = s.file)::INTEGER AS requests,
         (SELECT count(*) FROM branches b WHERE b.file = s.file)::INTEGER AS branches
       FROM sessions s ORDER BY sample`,
    ]);
    expect(perSample).toEqual(
      (alone ?? []).map((a) => ({
        sample: a.sample,
        ids: 1,
        files: copies,
        requests: (a.requests as number) * copies,
        branches: (a.branches as number) * copies,
      })),
    );
  });
});
