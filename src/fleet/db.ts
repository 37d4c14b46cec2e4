import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { DuckDBAppender, DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { InputError } from "../files/input-error.js";
import { packageRoot } from "../package-root.js";
import { type LoadedCommonJs, loadCommonJs } from "./code-cache.js";
import { checkDatabaseFile } from "./db-file.js";
import { type FileNumbers, insertFromCsvSql, sqlString } from "./table-csv.js";
import {
  type Cell,
  type ColumnType,
  createTableSql,
  TABLE_NAMES,
  TABLES,
  type TableName,
  type TableRows,
  type TableSpec,
} from "./tables.js";

type DuckDB = typeof import("@duckdb/node-api");

let loaded: DuckDB | null = null;
let bundle: (LoadedCommonJs & { path: string }) | null = null;

/**
 * DuckDB is an optional dependency, loaded only by the fleet commands (never by the Pi extension). Required, not
 * imported: it is CommonJS, and `import()` would first lex its modules for their exports. The build bundles the
 * installed version into one file (`build/bundle-duckdb.mjs`), loaded in its place while the versions agree, with the
 * code V8 compiled of it when the build ran it (`build/cache-duckdb.mjs`).
 */
export async function duckdb(): Promise<DuckDB> {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  try {
    const path = bundledApi(require);
    if (path === null) loaded = require("@duckdb/node-api") as DuckDB;
    else {
      bundle = { ...loadCommonJs(path), path };
      loaded = bundle.exports as DuckDB;
    }
  } catch (error) {
    throw new InputError(
      "E_NO_DUCKDB",
      `the optional dependency @duckdb/node-api is not installed (${(error as Error).message.split("\n")[0]}); install it with \`npm install @duckdb/node-api\``,
    );
  }
  return loaded;
}

/** The build's bundle as loaded (its path, and whether V8 took its code cache); null when the package was. */
export function loadedBundle(): (LoadedCommonJs & { path: string }) | null {
  return bundle;
}

/** The build's bundle of the installed @duckdb/node-api, when there is one of that version. */
function bundledApi(require: NodeJS.Require): string | null {
  let version: string;
  try {
    version = (require("@duckdb/node-api/package.json") as { version: string }).version;
  } catch {
    return null;
  }
  const bundle = join(packageRoot(), "dist", `duckdb-api-${version}.cjs`);
  return existsSync(bundle) ? bundle : null;
}

export interface OpenOptions {
  readOnly?: boolean;
  /** DuckDB's threads (all cores when not given). */
  threads?: number;
  /**
   * `false`: no FSST string compression in what this connection writes. On ids, hashes and names it saves about 6%
   * of the file and costs the index's commit about 40% of its time; message text (`--with-text`) keeps it.
   */
  compressStrings?: boolean;
  /**
   * Rows in a row group of the tables of a database this open creates. DuckDB writes a transaction's full row
   * groups while they are inserted and the rest at its commit: with DuckDB's own size (122,880 rows), a run of a
   * thousand sessions wrote all of its rows at the commit, after the last file was folded.
   */
  rowGroupSize?: number;
}

/**
 * The block size of a database this kit creates: half DuckDB's default. The first commit that writes to a column
 * zeroes a fresh block for it, so an appended tail's commit (nine tables, some eighty columns) costs about half as
 * much (about 23 ms instead of 41), for a file of the same size (smaller blocks grow it: 64 KiB doubles it) and a
 * full index as fast. An existing database keeps the size it was made with.
 */
const BLOCK_SIZE = "131072";

type Row = (string | number | boolean | null)[];

/** An open fleet database: the fact tables and the index's own bookkeeping. */
export class FleetDb {
  private readonly listType;

  private constructor(
    private readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
    private readonly api: DuckDB,
  ) {
    this.listType = api.LIST(api.VARCHAR);
  }

  /** Opens (or creates) the database; `readOnly` opens an existing one as it is, for queries. */
  static async open(path: string, options: OpenOptions = {}): Promise<FleetDb> {
    const { readOnly = false, threads, compressStrings = true, rowGroupSize } = options;
    checkDatabaseFile(path);
    const api = await duckdb();
    const config: Record<string, string> = readOnly ? { access_mode: "READ_ONLY" } : { default_block_size: BLOCK_SIZE };
    if (threads !== undefined) config.threads = String(threads);
    // A row group size is an option of attaching the file, not of opening it.
    const attach = rowGroupSize !== undefined && !readOnly;
    let instance: DuckDBInstance | null = null;
    let db: FleetDb | null = null;
    try {
      instance = await api.DuckDBInstance.create(attach ? ":memory:" : path, config);
      db = new FleetDb(instance, await instance.connect(), api);
      if (attach) {
        await db.run(
          `ATTACH ${sqlString(path)} AS fleet (BLOCK_SIZE ${BLOCK_SIZE}, ROW_GROUP_SIZE ${Math.trunc(rowGroupSize)})`,
        );
        await db.run("USE fleet");
        // Each row group is written as soon as it fills, not five at a time.
        await db.run("SET write_buffer_row_group_count = 1");
      }
    } catch (error) {
      if (db) db.close();
      else instance?.closeSync();
      throw new InputError("E_DB", `${path}: cannot open the database (${(error as Error).message.split("\n")[0]})`);
    }
    // Not taken from the instance's configuration: a setting of the connection.
    if (!compressStrings) await db.run("SET disabled_compression_methods = 'fsst'");
    if (!readOnly) await db.createTables();
    return db;
  }

  /** The tables, when missing. */
  private async createTables(): Promise<void> {
    await this.run(TABLE_NAMES.map((name) => createTableSql(TABLES[name] as TableSpec)).join(";\n"));
  }

  /** Whether this connection emptied the database (`recreateTables`). */
  recreated = false;

  /** Every table emptied and made again as this version writes them. */
  async recreateTables(): Promise<void> {
    await this.run(TABLE_NAMES.map((name) => `DROP TABLE ${name}`).join(";\n"));
    await this.createTables();
    this.recreated = true;
  }

  /** A query's rows, and the names of its columns (which rows alone do not give when there are none). */
  async queryWithColumns(
    sql: string,
    values?: (string | number | boolean | null)[],
  ): Promise<{ columns: string[]; rows: Record<string, unknown>[] }> {
    const reader = await this.connection.runAndReadAll(sql, values);
    return { columns: reader.columnNames(), rows: reader.getRowObjectsJS() };
  }

  async query<T = Record<string, unknown>>(sql: string, values?: (string | number | boolean | null)[]): Promise<T[]> {
    const reader = await this.connection.runAndReadAll(sql, values);
    return reader.getRowObjectsJS() as T[];
  }

  async run(sql: string, values?: (string | number | boolean | null)[]): Promise<void> {
    await this.connection.run(sql, values);
  }

  /** Inserts a table's rows from a CSV file (`rowsToCsv`), parsed by DuckDB's own threads. */
  async load(name: TableName, csvPath: string, files?: FileNumbers): Promise<void> {
    const sql = insertFromCsvSql(TABLES[name] as TableSpec, csvPath, statSync(csvPath).size, files);
    await this.connection.run(sql, files ? [this.api.listValue([...files.names])] : undefined);
  }

  /** Appends every table's rows (one appender per table): for a few rows, where a file would cost more. */
  async append(rows: TableRows): Promise<void> {
    for (const name of TABLE_NAMES) {
      const list = rows[name];
      if (list.length === 0) continue;
      const spec = TABLES[name] as TableSpec;
      const appender = await this.connection.createAppender(name);
      for (const row of list) {
        for (let i = 0; i < spec.columns.length; i++) {
          this.appendCell(appender, (spec.columns[i] as [string, ColumnType])[1], row[i] ?? null);
        }
        appender.endRow();
      }
      appender.closeSync();
    }
  }

  private appendCell(appender: DuckDBAppender, type: ColumnType, cell: Cell): void {
    if (cell === null || ((type === "INTEGER" || type === "BIGINT") && !Number.isFinite(Number(cell)))) {
      appender.appendNull();
      return;
    }
    switch (type) {
      case "VARCHAR":
        appender.appendVarchar(String(cell));
        break;
      case "INTEGER":
        appender.appendInteger(Number(cell));
        break;
      case "BIGINT":
        appender.appendDouble(Number(cell));
        break;
      case "BOOLEAN":
        appender.appendBoolean(cell === true);
        break;
      case "TIMESTAMP": {
        // DuckDB casts the text; a value it cannot read is left out rather than failing the run.
        if (Number.isNaN(Date.parse(String(cell)))) appender.appendNull();
        else appender.appendVarchar(String(cell));
        break;
      }
      case "VARCHAR[]":
        appender.appendList(cell as string[], this.listType);
        break;
      default:
        throw new Error(`unknown column type ${type satisfies never}`);
    }
  }

  /**
   * A file's `sessions` and `_memo` rows after an appended tail, updated in place: what a tail changes of them (its
   * counts, leaf, size and hash). Inserting them again cost the commit a fresh block for each of their columns.
   */
  async updateAppended(file: string, session: Row, memo: Row): Promise<void> {
    const [entries, bytes, activeLeafId, sha256, indexedBytes] = [5, 6, 7, 9, 10].map((i) => session[i] ?? null);
    await this.run(
      "UPDATE sessions SET entries = ?, bytes = ?, active_leaf_id = ?, sha256 = ?, indexed_bytes = ? WHERE file = ?",
      [entries, bytes, activeLeafId, sha256, indexedBytes, file] as Row,
    );
    const [size, mtimeMs, lines, row] = [2, 3, 4, 6].map((i) => memo[i] ?? null);
    await this.run("UPDATE _memo SET size = ?, mtime_ms = ?, lines = ?, session = ? WHERE file = ?", [
      size,
      mtimeMs,
      lines,
      row,
      file,
    ] as Row);
  }

  /** Forgets one file everywhere (before it is indexed whole again), in one round trip. */
  async forget(file: string, tables: readonly TableName[] = TABLE_NAMES): Promise<void> {
    await this.run(tables.map((name) => `DELETE FROM ${name} WHERE file = ${sqlString(file)}`).join(";\n"));
  }

  /** Closes the database and leaves this session's changes in the write-ahead log, which DuckDB reads back on open. */
  async closeWithoutCheckpoint(): Promise<void> {
    await this.run("PRAGMA disable_checkpoint_on_shutdown");
    this.close();
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
