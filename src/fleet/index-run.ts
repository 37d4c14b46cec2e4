import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FileItem } from "../files/file-pool.js";
import type { FleetDb } from "./db.js";
import { indexWholeFiles } from "./index-batches.js";
import { type OpeningIndex, openForIndex } from "./index-open.js";
import { type IndexOptions, type IndexSummary, type ManifestChanges, newSummary } from "./index-summary.js";
import type { FileMemo, TailIndex } from "./index-tail.js";
import { asKnown } from "./known-names.js";
import { type ManifestFile, writeManifest } from "./manifest.js";
import { MemoStore } from "./memo-files.js";
import { TABLE_NAMES } from "./tables.js";

/** `fresh`: a new database, nothing indexed yet. `changed`: the only files that may have changed (by the manifest). */
type IndexRunOptions = IndexOptions & { fresh?: boolean; changed?: ReadonlySet<string> | undefined };

/**
 * Brings the database at `dbPath` up to date with `items`: an unchanged file (same size and modification time) costs
 * one `stat`; a file appended to since is indexed by its tail; a new or rewritten file is indexed whole on the worker
 * pool. Bad files land in `diagnostics`; nothing stops the run. `opened`: the database the caller started opening;
 * `changes`: what the manifest beside it showed changed (only those files are then read from the database).
 */
export async function indexChanged(
  dbPath: string,
  items: readonly FileItem[],
  options: IndexOptions = {},
  opened: OpeningIndex = openForIndex(dbPath, options.withText),
  changes: ManifestChanges | null = null,
) {
  const { fresh } = opened;
  let db: FleetDb | null = null;
  const opening = opened.opening.then((open) => {
    db = open;
    return open;
  });
  try {
    const known = fresh ? null : changes;
    const summary = await indexInto(opening, dbPath, items, { ...options, fresh, changed: known?.changed });
    const open = (await opening) as FleetDb;
    // The manifest's other files are as they were, unless the database was emptied (an earlier layout).
    const files =
      known && !open.recreated
        ? { ...known.manifest.files, ...(await manifestFiles(open, [...known.changed])) }
        : await manifestFiles(open);
    db = null;
    // Appended tails stay in DuckDB's write-ahead log, which it folds in once the log grows past its threshold: a
    // checkpoint on every small run would cost more than the tail itself.
    if (summary.indexed + summary.unreadable > 0) open.close();
    else await open.closeWithoutCheckpoint();
    writeManifest(dbPath, files);
    return summary;
  } finally {
    (db as FleetDb | null)?.close();
  }
}

/**
 * Indexes `items` into `db` in one transaction. `db` may still be opening: when `fresh` (a new database, nothing
 * indexed yet) the workers start folding at once and the rows wait for it.
 */
export async function indexInto(
  db: FleetDb | Promise<FleetDb>,
  dbPath: string,
  items: readonly FileItem[],
  options: IndexRunOptions = {},
): Promise<IndexSummary> {
  const ready = Promise.resolve(db).then(async (open) => {
    await open.run("BEGIN TRANSACTION");
    return open;
  });
  ready.catch(() => {});
  // An in-memory database (an export's) has no later run to fold a tail: no memo is written for it.
  const memos = dbPath === ":memory:" ? null : MemoStore.open(dbPath);
  try {
    const summary = await indexChanges(ready, dbPath, items, options, memos);
    memos?.finish();
    await (await ready).run("COMMIT");
    return summary;
  } catch (error) {
    memos?.abandon();
    const open = await ready.catch(() => null);
    await open?.run("ROLLBACK");
    throw error;
  }
}

async function indexChanges(
  ready: Promise<FleetDb>,
  dbPath: string,
  items: readonly FileItem[],
  options: IndexRunOptions,
  store: MemoStore | null,
): Promise<IndexSummary> {
  const withText = options.withText === true;
  const remember = (file: string, memo: Uint8Array | undefined) => {
    if (memo) store?.write(file, memo);
  };
  // A database indexed before may have tails to fold here: the fold loads while DuckDB opens.
  const tails = options.fresh ? null : import("./index-tail.js");
  tails?.catch(() => {});
  let changed = options.fresh ? undefined : options.changed;
  const memos = options.fresh
    ? new Map<string, FileMemo>()
    : await readMemos(await ready, changed ? [...changed] : null);
  // Without a manifest, the names come from the database.
  const known = options.fresh ? items : asKnown(items, new Map([...memos.values()].map((m) => [m.path, m.file])));
  const summary = newSummary(dbPath, known);
  // An emptied database (an earlier layout) holds no file: every one is indexed whole.
  if (!options.fresh && (await ready).recreated) changed = undefined;
  const whole: FileItem[] = [];
  let done = 0;
  const tick = () => options.progress?.(++done, known.length);
  for (const item of known) {
    if (changed !== undefined && !changed.has(item.shown)) {
      summary.unchanged++;
      tick();
      continue;
    }
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
    const db = await ready;
    // Whether its tail is appended or the file is indexed whole, these rows go: DuckDB deletes them while the tail folds.
    const cleared = db
      .forget(memo.file, ["branches", "stalls", "tool_loops", "verification"])
      .then(() => db.run("DELETE FROM diagnostics WHERE file = ? AND code = 'W_TORN_TAIL'", [memo.file]));
    cleared.catch(() => {});
    const tail = stat && store && memo.status !== "unreadable" ? await tryTail(store, memo, withText, tails) : null;
    await cleared;
    if (tail !== null && typeof tail !== "string") {
      remember(memo.file, tail.memo);
      for (const late of tail.lateResults) {
        await db.run(
          "UPDATE tool_calls SET is_error = ?, error_code = ?, result_entry_id = ? WHERE file = ? AND call_id = ? AND result_entry_id IS NULL",
          [late.isError, late.errorCode, late.resultEntryId, memo.file, late.callId],
        );
      }
      await db.updateAppended(memo.file, tail.session, tail.memoRow);
      await db.append(tail.rows);
      summary.appended++;
      tick();
      continue;
    }
    const reason = stat === null ? "it can no longer be read" : (tail ?? "its indexed part changed");
    summary.reindexed.push({ file: item.shown, reason });
    whole.push(item);
  }
  if (whole.length === 0) return summary;
  const stale = whole.filter((item) => memos.has(item.shown)).map((item) => item.shown);
  if (stale.length > 0) await forgetFiles(await ready, stale);
  const spool = mkdtempSync(join(tmpdir(), "context-kit-index-"));
  try {
    await indexWholeFiles(ready, whole, withText, spool, (result, memo) => {
      remember(result.file, memo);
      if (result.how === "unreadable") summary.unreadable++;
      else summary.indexed++;
      tick();
    });
  } finally {
    rmSync(spool, { recursive: true, force: true });
  }
  return summary;
}

/** What the manifest holds: every file the database has indexed, as it stands after the commit. */
async function manifestFiles(
  db: FleetDb,
  only: readonly string[] | null = null,
): Promise<Record<string, ManifestFile>> {
  const { where, values } = fileFilter(only);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT m.file, m.path, m.size, m.mtime_ms, s.indexed_bytes, s.sha256 FROM _memo m LEFT JOIN sessions s USING (file)${where}`,
    values,
  );
  const files: Record<string, ManifestFile> = {};
  for (const r of rows) {
    files[r.file as string] = [
      r.path as string,
      Number(r.size),
      Number(r.mtime_ms),
      Number(r.indexed_bytes ?? 0),
      (r.sha256 as string | null) ?? "",
    ];
  }
  return files;
}

/** The file's appended tail indexed, or why it cannot be. */
async function tryTail(
  store: MemoStore,
  memo: FileMemo,
  withText: boolean,
  tails: Promise<typeof import("./index-tail.js")> | null,
): Promise<TailIndex | string> {
  const remembered = store.read(memo.file, memo.sha256, memo.indexedBytes);
  if (remembered === null) return "its memo beside the database is missing or out of date";
  const { indexTail, NotAnAppend } = await (tails ?? import("./index-tail.js"));
  try {
    const tail = indexTail(memo, remembered, withText);
    return tail instanceof NotAnAppend ? tail.reason : tail;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) return "it could not be read";
    throw error;
  }
}

/**
 * The memo rows. A memo table of the earlier layout, which held the memos themselves (they are files beside the
 * database now), empties the database: its files are then indexed whole.
 */
async function readMemos(db: FleetDb, only: readonly string[] | null): Promise<Map<string, FileMemo>> {
  const out = new Map<string, FileMemo>();
  const { where, values } = fileFilter(only);
  const { columns, rows } = await db.queryWithColumns(`SELECT * FROM _memo${where}`, values);
  if (columns.includes("states")) {
    await db.recreateTables();
    return out;
  }
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

/** A condition on the `file` column for these files (every file when null, or when they are many), and its values. */
function fileFilter(files: readonly string[] | null): { where: string; values?: string[] } {
  if (files === null || files.length > 500) return { where: "" };
  if (files.length === 0) return { where: " WHERE false" };
  return { where: ` WHERE file IN (${files.map(() => "?").join(", ")})`, values: [...files] };
}

async function forgetFiles(db: FleetDb, files: readonly string[]): Promise<void> {
  for (let i = 0; i < files.length; i += 500) {
    const chunk = files.slice(i, i + 500);
    const marks = chunk.map(() => "?").join(", ");
    for (const name of TABLE_NAMES) await db.run(`DELETE FROM ${name} WHERE file IN (${marks})`, chunk);
  }
}
