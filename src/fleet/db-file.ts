import { closeSync, openSync, readSync } from "node:fs";
import { InputError } from "../files/input-error.js";

/** Where a DuckDB database file says what it is: bytes 8 to 11 of its first block. */
const MAGIC = Buffer.from("DUCK");
const MAGIC_AT = 8;

/**
 * Refuses a database path that names a file holding something else (a session file, say). DuckDB opens such a file
 * as an empty database in memory: a run would then write nowhere and say it had indexed. A missing or empty file is
 * left to DuckDB (it creates the one, and names the other as not a database).
 */
export function checkDatabaseFile(path: string, shown: string = path): void {
  if (path === ":memory:") return;
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return;
  }
  const head = Buffer.alloc(MAGIC_AT + MAGIC.length);
  let got: number;
  try {
    got = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (got === 0 || head.subarray(MAGIC_AT).equals(MAGIC)) return;
  throw new InputError(
    "E_DB",
    `${shown}: not a DuckDB database (it holds other data; a fleet database is the file that \`context-kit index DIR --db FILE.duckdb\` creates)`,
  );
}
