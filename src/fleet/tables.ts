/** The fleet tables: one row per fact, the same columns in DuckDB, in Parquet and in `stats`. A contract. */

export type ColumnType = "VARCHAR" | "INTEGER" | "BIGINT" | "BOOLEAN" | "TIMESTAMP" | "VARCHAR[]";
export type Cell = string | number | boolean | null | string[];
export type Row = Cell[];

export interface TableSpec {
  name: string;
  columns: [name: string, type: ColumnType][];
  /** Internal bookkeeping for incremental runs; not exported. */
  internal?: boolean;
}

export const TABLES = {
  sessions: {
    name: "sessions",
    columns: [
      ["file", "VARCHAR"],
      ["session_id", "VARCHAR"],
      ["cwd", "VARCHAR"],
      ["started_at", "TIMESTAMP"],
      ["host_version", "VARCHAR"],
      ["entries", "INTEGER"],
      ["bytes", "BIGINT"],
      ["active_leaf_id", "VARCHAR"],
      ["status", "VARCHAR"],
      ["sha256", "VARCHAR"],
      ["indexed_bytes", "BIGINT"],
    ],
  },
  branches: {
    name: "branches",
    columns: [
      ["file", "VARCHAR"],
      ["leaf_id", "VARCHAR"],
      ["active", "BOOLEAN"],
      ["depth", "INTEGER"],
      ["fork_from_id", "VARCHAR"],
      ["stalled", "BOOLEAN"],
      ["tool_loop_kind", "VARCHAR"],
      ["recovery_anchor_id", "VARCHAR"],
      ["verification_revision", "INTEGER"],
      ["verification_incomplete", "BOOLEAN"],
      ["model", "VARCHAR"],
    ],
  },
  requests: {
    name: "requests",
    columns: [
      ["file", "VARCHAR"],
      ["request_id", "VARCHAR"],
      ["leaf_id", "VARCHAR"],
      ["model", "VARCHAR"],
      ["provider", "VARCHAR"],
      ["messages", "INTEGER"],
      ["digest_status", "VARCHAR"],
      ["input_tokens", "BIGINT"],
      ["output_tokens", "BIGINT"],
      ["created_at", "TIMESTAMP"],
      ["text", "VARCHAR"],
    ],
  },
  tool_calls: {
    name: "tool_calls",
    columns: [
      ["file", "VARCHAR"],
      ["entry_id", "VARCHAR"],
      ["request_id", "VARCHAR"],
      ["call_id", "VARCHAR"],
      ["tool", "VARCHAR"],
      ["args_sha256", "VARCHAR"],
      ["is_error", "BOOLEAN"],
      ["error_code", "VARCHAR"],
      ["nested", "BOOLEAN"],
      ["result_entry_id", "VARCHAR"],
    ],
  },
  denials: {
    name: "denials",
    columns: [
      ["file", "VARCHAR"],
      ["entry_id", "VARCHAR"],
      ["tool", "VARCHAR"],
      ["rule", "VARCHAR"],
      ["scope", "VARCHAR"],
      ["scope_count", "INTEGER"],
      ["created_at", "TIMESTAMP"],
    ],
  },
  stalls: {
    name: "stalls",
    columns: [
      ["file", "VARCHAR"],
      ["leaf_id", "VARCHAR"],
      ["entry_ids", "VARCHAR[]"],
    ],
  },
  tool_loops: {
    name: "tool_loops",
    columns: [
      ["file", "VARCHAR"],
      ["leaf_id", "VARCHAR"],
      ["kind", "VARCHAR"],
      ["entry_ids", "VARCHAR[]"],
      ["at_leaf", "BOOLEAN"],
    ],
  },
  verification: {
    name: "verification",
    columns: [
      ["file", "VARCHAR"],
      ["leaf_id", "VARCHAR"],
      ["revision", "INTEGER"],
      ["check", "VARCHAR"],
      ["status", "VARCHAR"],
      ["round", "INTEGER"],
    ],
  },
  diagnostics: {
    name: "diagnostics",
    columns: [
      ["file", "VARCHAR"],
      ["line", "INTEGER"],
      ["code", "VARCHAR"],
      ["message", "VARCHAR"],
    ],
  },
  /**
   * Per file: what it looked like when indexed, its `sessions` row, the folded state of each leaf and each entry's
   * parent, depth and messages on its path (deflated JSON): what an appended tail is proven against and folded from.
   */
  _memo: {
    name: "_memo",
    internal: true,
    columns: [
      ["file", "VARCHAR"],
      ["path", "VARCHAR"],
      ["size", "BIGINT"],
      ["mtime_ms", "BIGINT"],
      ["lines", "INTEGER"],
      ["header", "VARCHAR"],
      ["session", "VARCHAR"],
    ],
  },
} satisfies Record<string, TableSpec>;

export type TableName = keyof typeof TABLES;
export const TABLE_NAMES = Object.keys(TABLES) as TableName[];
/** The tables a user queries (and `export --parquet` writes). */
export const FACT_TABLES = TABLE_NAMES.filter((t) => !(TABLES[t] as TableSpec).internal);

/** Rows per table, each in its table's column order. */
export type TableRows = Record<TableName, Row[]>;

export function emptyRows(): TableRows {
  return Object.fromEntries(TABLE_NAMES.map((t) => [t, []])) as unknown as TableRows;
}

export function createTableSql(spec: TableSpec): string {
  const cols = spec.columns.map(([name, type]) => `"${name}" ${type}`).join(", ");
  return `CREATE TABLE IF NOT EXISTS ${spec.name} (${cols})`;
}
