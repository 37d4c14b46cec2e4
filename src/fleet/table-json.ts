import type { ColumnType, Row, TableSpec } from "./tables.js";

/**
 * A table's rows as newline-delimited JSON, one object per row keyed `c0`, `c1`, ...: a worker writes them as text
 * (cheap to post), and DuckDB's `read_json` parses them on its own threads instead of one native call per cell.
 * The cells are those the appender takes (`FleetDb.append`), and land the same.
 */
export function rowsToNdjson(spec: TableSpec, rows: readonly Row[]): string {
  const keys = spec.columns.map((_, i) => (i === 0 ? `{"c0":` : `,"c${i}":`));
  const types = spec.columns.map(([, type]) => type);
  let out = "";
  for (const row of rows) {
    let line = "";
    for (let i = 0; i < keys.length; i++) line += keys[i] + cellJson(types[i] as ColumnType, row[i] ?? null);
    out += `${line}}\n`;
  }
  return out;
}

function text(value: string): string {
  // A lone surrogate becomes U+FFFD, as it does on its way through the appender.
  const s = value as string & { isWellFormed(): boolean; toWellFormed(): string };
  return JSON.stringify(s.isWellFormed() ? s : s.toWellFormed());
}

function cellJson(type: ColumnType, cell: Row[number]): string {
  if (cell === null) return "null";
  switch (type) {
    case "VARCHAR":
      return text(String(cell));
    case "INTEGER":
    case "BIGINT": {
      const n = Number(cell);
      return Number.isFinite(n) ? String(n) : "null";
    }
    case "BOOLEAN":
      return cell === true ? "true" : "false";
    case "TIMESTAMP":
      return Number.isNaN(Date.parse(String(cell))) ? "null" : text(String(cell));
    case "VARCHAR[]":
      return `[${(cell as string[]).map((s) => text(String(s))).join(",")}]`;
    case "BLOB":
      return JSON.stringify(Buffer.from(cell as Uint8Array).toString("base64"));
    default:
      throw new Error(`unknown column type ${type satisfies never}`);
  }
}

/** How each column is read from the JSON, and turned into its table's type. */
const READ: Record<ColumnType, [read: string, select: (c: string) => string]> = {
  VARCHAR: ["VARCHAR", (c) => c],
  INTEGER: ["DOUBLE", (c) => `CAST(${c} AS INTEGER)`],
  BIGINT: ["DOUBLE", (c) => `CAST(${c} AS BIGINT)`],
  BOOLEAN: ["BOOLEAN", (c) => c],
  TIMESTAMP: ["VARCHAR", (c) => `TRY_CAST(${c} AS TIMESTAMP)`],
  "VARCHAR[]": ["VARCHAR[]", (c) => c],
  BLOB: ["VARCHAR", (c) => `from_base64(${c})`],
};

/** `INSERT` of a `rowsToNdjson` file into its table. */
export function insertFromNdjsonSql(spec: TableSpec, path: string): string {
  const columns = spec.columns.map(([, type], i) => `c${i}: '${READ[type][0]}'`).join(", ");
  const select = spec.columns.map(([, type], i) => READ[type][1](`c${i}`)).join(", ");
  const file = path.replaceAll("'", "''");
  return `INSERT INTO ${spec.name} SELECT ${select} FROM read_json('${file}', format = 'newline_delimited', columns = {${columns}}, maximum_object_size = 1073741824)`;
}
