import { DuckDBInstance } from "@duckdb/node-api";

/** Runs queries on a DuckDB file (read-only) and returns plain rows (bigints as numbers). */
export async function queryDb(path: string, sqls: string[]): Promise<Record<string, unknown>[][]> {
  const instance = await DuckDBInstance.create(path, path === ":memory:" ? {} : { access_mode: "READ_ONLY" });
  const connection = await instance.connect();
  try {
    const out: Record<string, unknown>[][] = [];
    for (const sql of sqls) {
      const rows = (await connection.runAndReadAll(sql)).getRowObjectsJS();
      out.push(JSON.parse(JSON.stringify(rows, (_k, v) => (typeof v === "bigint" ? Number(v) : v))));
    }
    return out;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Every fact table's rows (without the file column), sorted: two databases of the same files compare equal. */
export const TABLE_DUMP = [
  "sessions",
  "branches",
  "requests",
  "tool_calls",
  "denials",
  "stalls",
  "tool_loops",
  "verification",
  "diagnostics",
].map((t) => `SELECT * EXCLUDE (file) FROM ${t} ORDER BY ALL`);
