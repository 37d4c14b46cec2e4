import { statSync } from "node:fs";
import type { KitState } from "../../reducers/state.js";
import { type FileItem, mapFiles } from "../cli/file-pool.js";
import { FleetDb } from "./db.js";
import { type FileIndex, INDEX_FILE_MODULE, indexWhole, type LinkTuple, unpackMemo } from "./index-file.js";
import { type FileMemo, indexTail, NotAnAppend } from "./index-tail.js";
import { emptyRows, TABLE_NAMES, type TableName, type TableRows } from "./tables.js";

export interface IndexOptions {
  withText?: boolean;
  /** After each file: how many are done of how many. */
  progress?: (done: number, total: number) => void;
}

/** What one `index` run did, file by file. */
export interface IndexSummary {
  db: string;
  files: number;
  indexed: number;
  appended: number;
  unchanged: number;
  unreadable: number;
  /** Files indexed before and indexed whole again, with why (a rewrite, an append that was not one). */
  reindexed: { file: string; reason: string }[];
}

const BATCH_FILES = 64;

/**
 * Brings the database at `dbPath` up to date with `items`: an unchanged file (same size and modification time) costs
 * one `stat`; a file appended to since is indexed by its tail; a new or rewritten file is indexed whole on the worker
 * pool. Bad files land in `diagnostics`; nothing stops the run.
 */
export async function runIndex(dbPath: string, items: readonly FileItem[], options: IndexOptions = {}) {
  const db = await FleetDb.open(dbPath);
  try {
    return await indexInto(db, dbPath, items, options);
  } finally {
    db.close();
  }
}

export async function indexInto(
  db: FleetDb,
  dbPath: string,
  items: readonly FileItem[],
  options: IndexOptions = {},
): Promise<IndexSummary> {
  await db.run("BEGIN TRANSACTION");
  try {
    const summary = await indexChanges(db, dbPath, items, options);
    await db.run("COMMIT");
    return summary;
  } catch (error) {
    await db.run("ROLLBACK");
    throw error;
  }
}

async function indexChanges(
  db: FleetDb,
  dbPath: string,
  items: readonly FileItem[],
  options: IndexOptions,
): Promise<IndexSummary> {
  const withText = options.withText === true;
  const summary: IndexSummary = {
    db: dbPath,
    files: items.length,
    indexed: 0,
    appended: 0,
    unchanged: 0,
    unreadable: 0,
    reindexed: [],
  };
  const memos = await readMemos(db);
  const whole: FileItem[] = [];
  let done = 0;
  const tick = () => options.progress?.(++done, items.length);
  for (const item of items) {
    const memo = memos.get(item.shown);
    if (memo === undefined) {
      whole.push(item);
      continue;
    }
    let stat: { size: number; mtimeMs: number } | null = null;
    try {
      stat = statSync(item.path);
    } catch {}
    if (stat && memo.path === item.path && stat.size === memo.size && Math.trunc(stat.mtimeMs) === memo.mtimeMs) {
      summary.unchanged++;
      tick();
      continue;
    }
    const tail = stat && memo.status !== "unreadable" ? await tryTail(db, memo, withText) : null;
    if (tail !== null && !(tail instanceof NotAnAppend)) {
      await db.forget(memo.file, ["sessions", "branches", "stalls", "tool_loops", "verification", "_memo"]);
      await db.run("DELETE FROM diagnostics WHERE file = ? AND code = 'W_TORN_TAIL'", [memo.file]);
      for (const late of tail.lateResults) {
        await db.run(
          "UPDATE tool_calls SET is_error = ?, error_code = ?, result_entry_id = ? WHERE file = ? AND call_id = ? AND result_entry_id IS NULL",
          [late.isError, late.errorCode, late.resultEntryId, memo.file, late.callId],
        );
      }
      await db.append(tail.rows);
      summary.appended++;
      tick();
      continue;
    }
    const reason = stat === null ? "it can no longer be read" : (tail?.reason ?? "its indexed part changed");
    summary.reindexed.push({ file: item.shown, reason });
    whole.push(item);
  }
  const stale = whole.filter((item) => memos.has(item.shown)).map((item) => item.shown);
  await forgetFiles(db, stale);
  const task = withText ? "indexFileWithText" : "indexFile";
  let batch: FileIndex[] = [];
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    const rows = mergeRows(batch);
    batch = [];
    writing = writing.then(() => db.append(rows));
  };
  await mapFiles(
    {
      module: INDEX_FILE_MODULE,
      name: task,
      fn: (path, shown) => indexWhole(path, shown, withText),
    },
    whole,
    {
      progress: () => tick(),
      onResult: (result) => {
        if (result.how === "unreadable") summary.unreadable++;
        else summary.indexed++;
        batch.push(result);
        if (batch.length >= BATCH_FILES) flush();
      },
    },
  );
  flush();
  await writing;
  return summary;
}

async function tryTail(db: FleetDb, memo: FileMemo, withText: boolean) {
  const [row] = await db.query<{ states: Uint8Array; links: Uint8Array }>(
    "SELECT states, links FROM _memo WHERE file = ?",
    [memo.file],
  );
  if (!row) return null;
  try {
    const states = unpackMemo<Record<string, KitState>>(row.states);
    return indexTail(memo, states, unpackMemo<Record<string, LinkTuple>>(row.links), withText);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) return null;
    throw error;
  }
}

async function readMemos(db: FleetDb): Promise<Map<string, FileMemo>> {
  const rows = await db.query<Record<string, unknown>>(
    "SELECT file, path, size, mtime_ms, lines, header, session FROM _memo",
  );
  const out = new Map<string, FileMemo>();
  for (const r of rows) {
    const file = r.file as string;
    const session = JSON.parse(r.session as string) as FileMemo["row"];
    out.set(file, {
      file,
      path: r.path as string,
      size: Number(r.size),
      mtimeMs: Number(r.mtime_ms),
      lines: Number(r.lines),
      header: r.header as string,
      sha256: session[9] as string,
      indexedBytes: Number(session[10]),
      entries: Number(session[5]),
      status: session[8] as FileMemo["status"],
      row: session,
    });
  }
  return out;
}

async function forgetFiles(db: FleetDb, files: readonly string[]): Promise<void> {
  for (let i = 0; i < files.length; i += 500) {
    const chunk = files.slice(i, i + 500);
    const marks = chunk.map(() => "?").join(", ");
    for (const name of TABLE_NAMES) await db.run(`DELETE FROM ${name} WHERE file IN (${marks})`, chunk);
  }
}

function mergeRows(indexes: readonly FileIndex[]): TableRows {
  const rows = emptyRows();
  for (const index of indexes) {
    for (const name of TABLE_NAMES as TableName[]) {
      const from = index.rows[name];
      const to = rows[name];
      for (const row of from) to.push(row);
    }
  }
  return rows;
}
