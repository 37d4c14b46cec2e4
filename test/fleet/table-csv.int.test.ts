import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FleetDb } from "../../src/fleet/db.js";
import { type FileNumbers, rowsToCsv } from "../../src/fleet/table-csv.js";
import {
  type Cell,
  type ColumnType,
  emptyRows,
  TABLE_NAMES,
  TABLES,
  type TableName,
  type TableRows,
  type TableSpec,
} from "../../src/fleet/tables.js";
import { queryDb } from "./fleet-db.js";

const scratch = mkdtempSync(join(tmpdir(), "ck-table-csv-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Cells that trip a CSV writer or reader, by column type; every row gets one of each column's. */
const HARD: Record<ColumnType, Cell[]> = {
  VARCHAR: [
    null,
    "",
    "plain",
    'say "hi", then leave',
    "two\nlines\r\nand a CR\r",
    "a,b,,c",
    '""',
    "NULL",
    "  spaced  ",
    "back\\slash \\n not a newline",
    "中文 · émoji 🧪 · Ω",
    "lone \ud800 surrogate",
    "tab\there",
  ],
  INTEGER: [null, 0, -7, 2147483647, Number.NaN],
  BIGINT: [null, 0, 9007199254740991, -1, Number.POSITIVE_INFINITY],
  BOOLEAN: [null, true, false],
  TIMESTAMP: [null, "2026-01-12T09:30:10.000Z", "not a time", "2025-12-31T23:59:59Z"],
  "VARCHAR[]": [[], ["a"], ['q"uote', "com,ma", "", "new\nline", "[", "]"], ["中文", "\\"]],
};

function hardRows(spec: TableSpec): Cell[][] {
  const longest = Math.max(...spec.columns.map(([, type]) => HARD[type].length));
  return Array.from({ length: longest }, (_, r) =>
    spec.columns.map(([, type], i) => {
      const cells = HARD[type];
      return cells[(r + i) % cells.length] as Cell;
    }),
  );
}

/**
 * The rows appended into one database and loaded from CSV into another (each table's CSV from `csvOf`, with `files`
 * when it numbers its files): both databases' tables, sorted, and the CSV database's path.
 */
async function bothWays(tag: string, rows: TableRows, csvOf: (name: TableName) => string, files?: FileNumbers) {
  const viaAppender = join(scratch, `${tag}-appender.duckdb`);
  const viaCsv = join(scratch, `${tag}-csv.duckdb`);
  const a = await FleetDb.open(viaAppender);
  await a.append(rows);
  a.close();
  const b = await FleetDb.open(viaCsv);
  for (const name of TABLE_NAMES) {
    const path = join(scratch, `${tag}-${name}.csv`);
    writeFileSync(path, csvOf(name));
    await b.load(name, path, files);
  }
  b.close();
  const dump = TABLE_NAMES.map((name) => `SELECT * FROM ${name} ORDER BY ALL`);
  return { appended: await queryDb(viaAppender, dump), loaded: await queryDb(viaCsv, dump), viaCsv };
}

describe("rows through CSV", () => {
  it("land in every table exactly as the appender lands them, for every kind of hard cell", async () => {
    const rows = emptyRows() as TableRows;
    for (const name of TABLE_NAMES) rows[name].push(...hardRows(TABLES[name] as TableSpec));
    const { appended, loaded, viaCsv } = await bothWays("named", rows, (name) =>
      rowsToCsv(TABLES[name] as TableSpec, rows[name]),
    );
    expect(loaded).toEqual(appended);
    for (const [i, name] of TABLE_NAMES.entries()) expect(loaded[i], name).toHaveLength(rows[name].length);
    const [strings] = await queryDb(viaCsv, ["SELECT DISTINCT file FROM sessions WHERE file IS NOT NULL"]);
    const files = (strings ?? []).map((r) => r.file);
    expect(files).toEqual(expect.arrayContaining(["", "NULL", 'say "hi", then leave', "two\nlines\r\nand a CR\r"]));
    expect(files).toContain("lone \ufffd surrogate");
  });

  it("land when one row is longer than DuckDB's default line limit, alone in its file or after short rows", async () => {
    const spec = TABLES.requests as TableSpec;
    const text = `${'a reply with "quotes", commas\nand lines, '.repeat(90_000)}中文 ✓`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 << 20);
    const long: Cell[] = spec.columns.map(([column]) =>
      column === "text" ? text : column === "file" ? "f.jsonl" : null,
    );
    const short = hardRows(spec);
    const rows = emptyRows() as TableRows;
    rows.requests.push(long, ...short, long);
    const alone = emptyRows() as TableRows;
    alone.requests.push(long);
    for (const [tag, set] of [
      ["long-after-short", rows],
      ["long-alone", alone],
    ] as const) {
      const { appended, loaded } = await bothWays(tag, set, (name) => rowsToCsv(TABLES[name] as TableSpec, set[name]));
      expect(loaded).toEqual(appended);
      const texts = (loaded[TABLE_NAMES.indexOf("requests")] ?? []).map((r) => r.text);
      expect(texts.filter((t) => t === text)).toHaveLength(set === rows ? 2 : 1);
    }
  });

  it("with the file written as a number, land as the file's name, however hard the name", async () => {
    const names = ["it's", 'say "hi", then', "two\nlines", "中文 · Ω", "lone \ud800 surrogate", "plain.jsonl"];
    const first = 40;
    const rows = emptyRows() as TableRows;
    const csv = new Map<string, string>();
    for (const name of TABLE_NAMES) {
      const spec = TABLES[name] as TableSpec;
      let text = "";
      for (const [i, file] of names.entries()) {
        const own = hardRows(spec).map((row) => [file, ...row.slice(1)]);
        rows[name].push(...own);
        text += rowsToCsv(spec, own, first + i);
      }
      csv.set(name, text);
    }
    const numbers = { first, names };
    const { appended, loaded, viaCsv } = await bothWays("numbered", rows, (name) => csv.get(name) as string, numbers);
    expect(loaded).toEqual(appended);
    const [files] = await queryDb(viaCsv, ["SELECT DISTINCT file FROM requests ORDER BY file"]);
    expect(files?.map((r) => r.file)).toHaveLength(names.length);
  });
});
