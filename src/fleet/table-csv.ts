import type { ColumnType, Row, TableSpec } from "./tables.js";

/**
 * A table's rows as CSV: a worker writes them as text (cheap to post), and DuckDB's CSV reader parses them on its
 * own threads instead of one native call per cell (and about twice as fast as it reads the same rows as JSON). An
 * empty unquoted field is NULL; text is always quoted. The cells are those the appender takes (`FleetDb.append`), and
 * land the same. With `fileNumber`, the first column (the file) is written as that number instead, which the insert
 * turns back into the file's name (`insertFromCsvSql`): a name repeated on every row costs more to parse than to look up.
 */
export function rowsToCsv(spec: TableSpec, rows: readonly Row[], fileNumber?: number): string {
  const types = spec.columns.map(([, type]) => type);
  const number = fileNumber === undefined ? undefined : String(fileNumber);
  let out = "";
  for (const row of rows) {
    let line = number ?? cellCsv(types[0] as ColumnType, row[0] ?? null);
    for (let i = 1; i < types.length; i++) line += `,${cellCsv(types[i] as ColumnType, row[i] ?? null)}`;
    out += `${line}\n`;
  }
  return out;
}

function quoted(value: string): string {
  // A lone surrogate becomes U+FFFD, as it does on its way through the appender.
  const s = value as string & { isWellFormed(): boolean; toWellFormed(): string };
  const text = s.isWellFormed() ? value : s.toWellFormed();
  return `"${text.includes('"') ? text.replaceAll('"', '""') : text}"`;
}

function cellCsv(type: ColumnType, cell: Row[number]): string {
  if (cell === null) return "";
  switch (type) {
    case "VARCHAR":
      return quoted(String(cell));
    case "INTEGER":
    case "BIGINT": {
      const n = Number(cell);
      return Number.isFinite(n) ? String(n) : "";
    }
    case "BOOLEAN":
      return cell === true ? "true" : "false";
    case "TIMESTAMP":
      return Number.isNaN(Date.parse(String(cell))) ? "" : quoted(String(cell));
    case "VARCHAR[]":
      return quoted(JSON.stringify((cell as unknown[]).map(String)));
    default:
      throw new Error(`unknown column type ${type satisfies never}`);
  }
}

/** How each column is read from the CSV, and turned into its table's type. */
const READ: Record<ColumnType, [read: string, select: (c: string) => string]> = {
  VARCHAR: ["VARCHAR", (c) => c],
  INTEGER: ["DOUBLE", (c) => `CAST(${c} AS INTEGER)`],
  BIGINT: ["DOUBLE", (c) => `CAST(${c} AS BIGINT)`],
  BOOLEAN: ["BOOLEAN", (c) => c],
  TIMESTAMP: ["VARCHAR", (c) => `TRY_CAST(${c} AS TIMESTAMP)`],
  "VARCHAR[]": ["VARCHAR", (c) => `from_json(${c}, '["VARCHAR"]')`],
};

/** The files of a CSV written with file numbers: number `first + i` stands for `names[i]`. */
export interface FileNumbers {
  first: number;
  names: readonly string[];
}

/** DuckDB's own default line limit, kept as the least; and the most, the limit every insert had before. */
const MIN_LINE_BYTES = 2 << 20;
const MAX_LINE_BYTES = 1 << 30;

/** A string as an SQL literal. */
export const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * `INSERT` of a `rowsToCsv` file of `bytes` bytes into its table; `files` when its file column was written as numbers,
 * and then the statement takes the list of names as its parameter `$1` (bound as a value: written into the statement
 * as a list of literals, 250 names cost DuckDB about 10 ms to parse and bind, for every table). No row is longer than
 * the file: the reader's buffers are sized from it, up to 1 GiB (a fixed 1 GiB line limit cost each statement about 5
 * ms; for a file of 230 MB, the limit and buffer sized from it also took 555 MB at the peak instead of 773 MB).
 */
export function insertFromCsvSql(spec: TableSpec, path: string, bytes: number, files?: FileNumbers): string {
  const line = Math.min(MAX_LINE_BYTES, Math.max(MIN_LINE_BYTES, bytes));
  const read = (type: ColumnType, i: number) => (i === 0 && files ? "INTEGER" : READ[type][0]);
  const columns = spec.columns.map(([, type], i) => `c${i}: '${read(type, i)}'`).join(", ");
  const select = spec.columns
    .map(([, type], i) => (i === 0 && files ? `$1[c0 - ${files.first - 1}]` : READ[type][1](`c${i}`)))
    .join(", ");
  return `INSERT INTO ${spec.name} SELECT ${select} FROM read_csv(${sqlString(path)}, columns = {${columns}}, header = false, delim = ',', quote = '"', escape = '"', allow_quoted_nulls = false, auto_detect = false, max_line_size = ${line}, buffer_size = ${2 * line})`;
}
