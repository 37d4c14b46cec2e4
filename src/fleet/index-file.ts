import { hash } from "node:crypto";
import { KIT } from "../../reducers/contract/kit-entries.js";
import type { KitState } from "../../reducers/state.js";
import type { StateSource } from "../fold/branch-fold.js";
import { ReadingFold } from "../fold/reading-fold.js";
import { foldTree } from "../fold/session-fold.js";
import type { SessionEntry } from "../log/entry-types.js";
import type { ReadOptions } from "../log/read-session.js";
import { kitVersion } from "../package-root.js";
import { loadSessionText } from "../session.js";
import type { FileOrder } from "../tree/file-order.js";
import type { SessionTree } from "../tree/session-tree.js";
import { recordedRequests } from "../view/recorded-requests.js";
import { RequestViews } from "../view/request-views.js";
import { addBranchRows } from "./branch-facts.js";
import { ArgsHashes, EntryFacts } from "./entry-facts.js";
import {
  addEntryRows,
  type DigestOutcome,
  type DigestStatus,
  diagnosticRow,
  type FileDiagnostic,
  sessionRow,
} from "./entry-rows.js";
import { type FileIndexCsv, type IndexHow, packParts } from "./index-bytes.js";
import { packMemo } from "./memo-files.js";
import { packPlaces } from "./memo-links.js";
import { readComplete } from "./read-complete.js";
import { rowsToCsv } from "./table-csv.js";
import { emptyRows, TABLE_NAMES, TABLES, type TableName, type TableRows, type TableSpec } from "./tables.js";

/** One file's rows for every table, and how it was indexed. */
export interface FileIndex {
  file: string;
  path: string;
  how: IndexHow;
  /** Why a file that had been indexed before was indexed whole again, if it was. */
  note?: string;
  rows: TableRows;
  /** The bytes of its memo file (`packMemo`), for a file whose tail a later run may fold alone. */
  memo?: Uint8Array;
}

/** What every recorded request's entry holds (`context-kit/request-digest/v1`, `/v2`). */
const DIGEST_MARK = KIT.requestDigest.slice(0, KIT.requestDigest.lastIndexOf("/") + 1);

/** The bytes at each end of a file searched for a recorded request: a live session records each of its requests. */
const DIGEST_PROBE = 64 << 10;

function recordsRequests(data: Buffer): boolean {
  if (data.length <= 2 * DIGEST_PROBE) return data.includes(DIGEST_MARK);
  return (
    data.subarray(0, DIGEST_PROBE).includes(DIGEST_MARK) ||
    data.subarray(data.length - DIGEST_PROBE).includes(DIGEST_MARK)
  );
}

/** Shared by the files one thread indexes. */
const ARGS_HASHES = new ArgsHashes();

/** `fileNumber`: the number written for the file in every row (see `rowsToCsv`); its name when not given. */
export function indexCsv(path: string, shown: string, withText: boolean, fileNumber?: number): FileIndexCsv {
  const index = indexWhole(path, shown, withText);
  const texts: [TableName, string][] = [];
  for (const name of TABLE_NAMES) {
    const rows = index.rows[name];
    if (rows.length > 0) texts.push([name, rowsToCsv(TABLES[name] as TableSpec, rows, fileNumber)]);
  }
  return { file: index.file, how: index.how, ...packParts(texts, index.memo) };
}

/** The whole-file index of one session file (what a file-pool worker runs), the file numbered by its position. */
export function indexFile(path: string, shown: string, index: number): FileIndexCsv {
  return indexCsv(path, shown, false, index);
}

/** `indexFile` with message text kept. */
export function indexFileWithText(path: string, shown: string, index: number): FileIndexCsv {
  return indexCsv(path, shown, true, index);
}

export function indexWhole(path: string, shown: string, withText: boolean): FileIndex {
  const rows = emptyRows();
  let read: ReturnType<typeof readComplete>;
  try {
    // Nothing kept from the file refers to its bytes: what is kept is parsed or hashed from them.
    read = readComplete(path, true);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "E_READ";
    const session = sessionRow(shown, null, null, 0, "unreadable", "", 0);
    rows.sessions.push(session);
    rows.diagnostics.push([shown, 0, "E_READ", `cannot read the file (${code})`]);
    rows._memo.push([shown, path, -1, -1, 0, "", JSON.stringify(session)]);
    return { file: shown, path, how: "unreadable", rows };
  }
  const { data } = read;
  const facts = new EntryFacts(shown, withText, ARGS_HASHES);
  // Recorded requests are verified on whole entries: a file that holds them is read whole once, not as outlines
  // folded while reading and then again whole (as one whose records lie only further in is).
  const fold = recordsRequests(data) ? null : new ReadingFold(path);
  const options: ReadOptions = fold?.readOptions() ?? {};
  const onEntry = options.onEntry;
  const session = loadSessionText(shown, data, {
    ...options,
    onEntry: (entry, at, bytes) => {
      facts.take(entry);
      onEntry?.(entry, at, bytes);
    },
  });
  const { log } = session;
  const diagnostics: FileDiagnostic[] = [...session.diagnostics];
  if (read.torn > 0) {
    diagnostics.push({
      line: log.lines + 1,
      code: "W_TORN_TAIL",
      severity: "warning",
      message: `the last ${read.torn} bytes have no newline yet: left for the next run`,
    });
  }
  for (const d of diagnostics) rows.diagnostics.push(diagnosticRow(shown, d));
  const header = data.subarray(0, data.indexOf(0x0a)).toString("utf8");
  /** The file's memo row: what a later run needs to tell an appended tail from a rewrite. */
  const memoRow = (facts: object) => [shown, path, read.size, read.mtimeMs, log.lines, header, JSON.stringify(facts)];
  const sha256 = sha256Of(data);
  if (log.unusable || log.header === null) {
    const session = sessionRow(shown, log.header, null, 0, "unreadable", sha256, data.length, read.size);
    rows.sessions.push(session);
    rows._memo.push(memoRow(session));
    return { file: shown, path, how: "unreadable", rows };
  }
  let tree = session.tree;
  let whole = fold === null;
  let states: StateSource;
  if (fold?.matches(tree)) states = fold;
  else {
    if (!whole) tree = loadSessionText(shown, data).tree;
    whole = true;
    states = foldTree(tree);
  }
  const status = diagnostics.some((d) => d.severity === "error") ? "errors" : "ok";
  const sessionFacts = sessionRow(
    shown,
    log.header,
    tree.activeLeafId,
    tree.size,
    status,
    sha256,
    data.length,
    read.size,
  );
  rows.sessions.push(sessionFacts);
  const { order } = tree;
  const counts = messagesOnPaths(order);
  const messages = (id: string) => counts[order.indexOf.get(id) ?? -1] ?? 0;
  const leafStates: Record<string, KitState> = {};
  for (const leafId of tree.leaves()) {
    const state = states.stateAt(leafId);
    leafStates[leafId] = state;
    const active = leafId === tree.activeLeafId;
    const forkFromId = active || tree.activeLeafId === null ? null : tree.commonAncestor(leafId, tree.activeLeafId);
    addBranchRows(rows, shown, { leafId, active, depth: tree.depth(leafId), forkFromId }, state);
  }
  const digests = facts.sawDigest
    ? digestStatuses(whole ? tree : loadSessionText(shown, data).tree, states)
    : new Map<string, DigestOutcome>();
  addEntryRows(rows, shown, facts, (leafId) => digests.get(leafId), messages);
  rows._memo.push(memoRow(sessionFacts));
  return {
    file: shown,
    path,
    how: "indexed",
    rows,
    memo: packMemo(sha256, data.length, {
      states: leafStates,
      links: packPlaces(order.ids, order.parents, order.depths, counts),
    }),
  };
}

/** The recorded requests' statuses by leaf, as `check` computes them (the view recomputed at each leaf). */
function digestStatuses(tree: SessionTree, states: StateSource): Map<string, DigestOutcome> {
  const views = new RequestViews(tree, states);
  const version = kitVersion();
  const out = new Map<string, DigestOutcome>();
  for (const recorded of recordedRequests(tree)) {
    const r = views.verify(recorded, version);
    if (r.leafId === null) continue;
    const status: DigestStatus =
      r.status === "verified" ? "verified" : r.status === "differs" ? "differs" : "other-version";
    out.set(r.leafId, { status, messages: recorded.recorded.messages });
  }
  return out;
}

function sha256Of(data: Buffer): string {
  return hash("sha256", data, "hex");
}

/** The messages on the path to each entry, the entry included, by its place in file order. */
function messagesOnPaths({ entries, parents }: FileOrder): number[] {
  const counts = new Array<number>(entries.length).fill(-1);
  const climbed: number[] = [];
  for (let place = 0; place < entries.length; place++) {
    let cursor = place;
    while (cursor >= 0 && counts[cursor] === -1) {
      climbed.push(cursor);
      cursor = parents[cursor] as number;
    }
    let count = cursor < 0 ? 0 : (counts[cursor] as number);
    for (let i = climbed.length - 1; i >= 0; i--) {
      const at = climbed[i] as number;
      if ((entries[at] as SessionEntry).type === "message") count++;
      counts[at] = count;
    }
    climbed.length = 0;
  }
  return counts;
}
