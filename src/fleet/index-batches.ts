import { closeSync, openSync, rmSync, writevSync } from "node:fs";
import { join } from "node:path";
import { type FileItem, mapFiles } from "../files/file-pool.js";
import type { FleetDb } from "./db.js";
import { csvParts, type FileIndexCsv } from "./index-bytes.js";
import type { FileNumbers } from "./table-csv.js";
import type { TableName } from "./tables.js";

/**
 * The fold runs on the workers: the main thread loads it (and the tail indexer) only when it folds itself, so that
 * the workers start at once and DuckDB loads beside them.
 */
const INDEX_FILE_MODULE = new URL("./index-file.js", import.meta.url).href;

const BATCH_FILES = 250;
/** Batches shrink as the run nears its end: the last one is inserted after the workers stop, with nothing beside it. */
const LAST_BATCH_FILES = 25;

/**
 * Tables of about one row a file: each insert costs DuckDB a few milliseconds whatever its size, so their rows wait
 * for the end of the run (or for this many bytes) rather than going in with every batch.
 */
const PER_FILE_TABLES: ReadonlySet<TableName> = new Set<TableName>([
  "sessions",
  "_memo",
  "branches",
  "stalls",
  "tool_loops",
  "verification",
  "denials",
  "diagnostics",
]);
const PER_FILE_BYTES = 4 << 20;

/** Rows waiting to be inserted: each table's CSV chunks, and the files they name by number. */
export class PendingRows {
  private chunks = new Map<TableName, Uint8Array[]>();
  private first = -1;
  private names: string[] = [];
  /** The bytes of the rows waiting. */
  bytes = 0;

  /** The files taken since the last write. */
  get files(): number {
    return this.names.length;
  }

  add(name: TableName, bytes: Uint8Array): void {
    const list = this.chunks.get(name);
    if (list === undefined) this.chunks.set(name, [bytes]);
    else list.push(bytes);
    this.bytes += bytes.byteLength;
  }

  /** Takes a file of the run (in order): its rows name it by its position. */
  file(name: string, index: number): void {
    if (this.names.length === 0) this.first = index;
    this.names.push(name);
  }

  /** Each table's rows in one file of `spool`, and the files they name; this emptied. */
  write(spool: string, tag: string): { files: [TableName, string][]; numbers: FileNumbers } {
    const files: [TableName, string][] = [];
    for (const [name, list] of this.chunks) {
      const path = join(spool, `${tag}-${name}.csv`);
      writeAll(path, list);
      files.push([name, path]);
    }
    const numbers = { first: this.first, names: this.names };
    this.chunks = new Map();
    this.bytes = 0;
    this.names = [];
    return { files, numbers };
  }
}

/**
 * Folds `items` on the worker pool; their rows go to CSV files in `spool`, and after each batch of files DuckDB
 * inserts them while the workers go on folding (the tables of about a row a file less often).
 */
export async function indexWholeFiles(
  ready: Promise<FleetDb>,
  items: readonly FileItem[],
  withText: boolean,
  spool: string,
  onFile: (result: FileIndexCsv, memo: Uint8Array | undefined) => void,
): Promise<void> {
  const batch = new PendingRows();
  const perFile = new PendingRows();
  let received = 0;
  let written = 0;
  let writing: Promise<unknown> = ready;
  // The file's memo goes to `onFile`, each table's rows to the batch or to the rows that wait longer.
  const take = (result: FileIndexCsv, index: number) => {
    batch.file(result.file, index);
    perFile.file(result.file, index);
    let memo: Uint8Array | undefined;
    for (const [name, bytes] of csvParts(result)) {
      if (name === "memo") memo = bytes;
      else (PER_FILE_TABLES.has(name) ? perFile : batch).add(name, bytes);
    }
    onFile(result, memo);
  };
  const insert = (pending: PendingRows) => {
    const { files, numbers } = pending.write(spool, String(written++));
    if (files.length === 0) return;
    writing = writing.then(async () => {
      const db = await ready;
      for (const [name, path] of files) {
        await db.load(name, path, numbers);
        rmSync(path);
      }
    });
    // Awaited below; until then a failed insert must not count as unhandled.
    writing.catch(() => {});
  };
  const folding = mapFiles(
    {
      module: INDEX_FILE_MODULE,
      name: withText ? "indexFileWithText" : "indexFile",
      indexed: true,
      fn: async (path, shown, index) => (await import("./index-file.js")).indexCsv(path, shown, withText, index),
    },
    items,
    {
      onResult: (result, index) => {
        take(result, index);
        const remaining = items.length - ++received;
        if (batch.files >= Math.max(LAST_BATCH_FILES, Math.min(BATCH_FILES, remaining))) insert(batch);
        if (perFile.bytes >= PER_FILE_BYTES) insert(perFile);
      },
    },
  );
  try {
    await folding;
  } finally {
    insert(batch);
    insert(perFile);
    // Settled before the caller rolls back or removes the spool.
    await writing.catch(() => {});
  }
  await writing;
}

/** The chunks one after another in a new file, written as they are rather than copied into one buffer first. */
function writeAll(path: string, chunks: readonly Uint8Array[]): void {
  const fd = openSync(path, "w");
  try {
    // At most 1024 pieces in one write (the system's limit).
    for (let i = 0; i < chunks.length; i += 1024) {
      const group = chunks.slice(i, i + 1024);
      const size = group.reduce((sum, c) => sum + c.byteLength, 0);
      const written = writevSync(fd, group);
      // A file takes a whole write or fails; a short one means the disk is full.
      if (written !== size) throw new Error(`${path}: wrote ${written} of ${size} bytes (is the disk full?)`);
    }
  } finally {
    closeSync(fd);
  }
}
