import { createHash } from "node:crypto";
import type { KitState } from "../../reducers/state.js";
import { kitReducer } from "../fold/kit-reducer.js";
import { toEvent } from "../fold/to-event.js";
import type { SessionEntry } from "../log/entry-types.js";
import { parseSessionText } from "../log/read-session.js";
import { addBranchRows } from "./branch-facts.js";
import { EntryFacts } from "./entry-facts.js";
import { addEntryRows, diagnosticRow } from "./entry-rows.js";
import type { FileIndex } from "./index-file.js";
import { type Memo, packMemo } from "./memo-files.js";
import { type LinkTuple, packLinks } from "./memo-links.js";
import { readComplete } from "./read-complete.js";
import { emptyRows } from "./tables.js";

/** What the index remembers of a file it indexed: enough to prove a tail was only appended, and to fold it. */
export interface FileMemo {
  file: string;
  path: string;
  size: number;
  mtimeMs: number;
  lines: number;
  header: string;
  sha256: string;
  indexedBytes: number;
  entries: number;
  status: "ok" | "errors" | "unreadable";
  /** Its `sessions` row as last written. */
  row: (string | number | boolean | null)[];
}

/**
 * The facts of an appended tail, the late results of calls made before it, and the file's `sessions` and `_memo`
 * rows as they are now (updated in place, not among the new rows).
 */
export interface TailIndex extends FileIndex {
  lateResults: EntryFacts["lateResults"];
  session: Row;
  memoRow: Row;
}

type Row = (string | number | boolean | null)[];

/** Why a tail cannot be folded alone; the file is then indexed whole, which says so. */
export class NotAnAppend {
  constructor(readonly reason: string) {}
}

/**
 * Indexes only what was appended to `memo`'s file since it was indexed: the prefix is proven unchanged (its SHA-256),
 * the new lines are read and folded from the states remembered at the leaves they continue. Anything else (a rewritten
 * prefix, a new line that continues an inner entry, a reader error in the tail, recorded request digests that need the
 * whole branch recomputed) is a `NotAnAppend`.
 */
export function indexTail(memo: FileMemo, { states, links }: Memo, withText: boolean): TailIndex | NotAnAppend {
  const read = readComplete(memo.path);
  if (read.data.length < memo.indexedBytes) return new NotAnAppend("the file is shorter than when it was indexed");
  const hash = createHash("sha256").update(read.data.subarray(0, memo.indexedBytes));
  if (hash.copy().digest("hex") !== memo.sha256) return new NotAnAppend("its indexed part was rewritten");
  const sha = hash.update(read.data.subarray(memo.indexedBytes)).digest("hex");
  const file = memo.file;
  const facts = new EntryFacts(file, withText);
  const entries: SessionEntry[] = [];
  const text = Buffer.concat([Buffer.from(`${memo.header}\n`), read.data.subarray(memo.indexedBytes)]);
  const log = parseSessionText(file, text, { onEntry: (entry) => entries.push(entry) });
  if (log.sourceVersion < 3) return new NotAnAppend("an older format version is migrated whole");
  const errors = log.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) return new NotAnAppend(`the new lines have reader errors (${errors[0]?.code})`);
  const tailStates = new Map<string, KitState>();
  const tailLinks = new Map<string, LinkTuple>();
  const linkOf = (id: string): LinkTuple | undefined => tailLinks.get(id) ?? links.get(id);
  for (const entry of entries) {
    const id = entry.id;
    if (linkOf(id) !== undefined) return new NotAnAppend(`entry ${id} is written twice`);
    const parentId = entry.parentId ?? null;
    const base = parentId === null ? undefined : (tailStates.get(parentId) ?? states[parentId]);
    const parentLink = parentId === null ? undefined : linkOf(parentId);
    if (base === undefined || parentLink === undefined) {
      return new NotAnAppend(`entry ${id} continues ${parentId ?? "nothing"}, which is not the end of a branch`);
    }
    facts.take(entry);
    tailStates.set(id, kitReducer.evolve(base, toEvent(entry)));
    tailLinks.set(id, [parentId, parentLink[1] + 1, parentLink[2] + (entry.type === "message" ? 1 : 0)]);
  }
  if (facts.sawDigest) return new NotAnAppend("recorded requests are verified on the whole branch");

  const rows = emptyRows();
  const continued = new Set(entries.map((e) => e.parentId as string));
  const leafStates: Record<string, KitState> = {};
  for (const [id, state] of Object.entries(states)) if (!continued.has(id)) leafStates[id] = state;
  for (const [id, state] of tailStates) if (!continued.has(id)) leafStates[id] = state;
  const last = entries[entries.length - 1];
  const active = last ? last.id : ((memo.row[7] as string | null) ?? null);
  const onActive = new Set<string>();
  for (let cursor = active; cursor !== null; cursor = linkOf(cursor)?.[0] ?? null) onActive.add(cursor);
  for (const [leafId, state] of Object.entries(leafStates)) {
    let fork: string | null = leafId;
    while (fork !== null && !onActive.has(fork)) fork = linkOf(fork)?.[0] ?? null;
    const isActive = leafId === active;
    const depth = linkOf(leafId)?.[1] ?? 0;
    addBranchRows(rows, file, { leafId, active: isActive, depth, forkFromId: isActive ? null : fork }, state);
  }
  addEntryRows(
    rows,
    file,
    facts,
    () => undefined,
    (id) => linkOf(id)?.[2] ?? 0,
  );
  const lineBase = memo.lines - 1;
  for (const d of log.diagnostics) rows.diagnostics.push(diagnosticRow(file, { ...d, line: d.line + lineBase }));
  if (read.torn > 0) {
    rows.diagnostics.push(
      diagnosticRow(file, {
        line: log.lines + lineBase + 1,
        code: "W_TORN_TAIL",
        severity: "warning",
        message: `the last ${read.torn} bytes have no newline yet: left for the next run`,
      }),
    );
  }
  for (const [id, link] of tailLinks) links.set(id, link);
  const session = [...memo.row];
  session[5] = memo.entries + entries.length;
  session[6] = read.size;
  session[7] = active;
  session[9] = sha;
  session[10] = read.data.length;
  const memoRow = [
    file,
    memo.path,
    read.size,
    read.mtimeMs,
    lineBase + log.lines,
    memo.header,
    JSON.stringify(session),
  ];
  const packed = packMemo(sha, read.data.length, { states: leafStates, links: packLinks(links) });
  return {
    file,
    path: memo.path,
    how: "appended",
    rows,
    memo: packed,
    lateResults: facts.lateResults,
    session,
    memoRow,
  };
}
