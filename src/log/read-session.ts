import { isUtf8 } from "node:buffer";
import { readSync } from "node:fs";
import { type Diagnostic, diagnostic, FATAL_CODES } from "./diagnostics.js";
import type { SessionEntry, SessionHeader } from "./entry-types.js";
import { invalidRecordStub, MAX_NESTING, nestsDeeper, withEmptyContent } from "./invalid-record.js";
import { linesOfBuffer, linesOfFile, type RawLine } from "./lines.js";
import { migrateToV3 } from "./migrate.js";
import { checkEntry } from "./schemas.js";
import type { DroppedRecord, RecordPosition, SessionLog } from "./session-log.js";

export type { DroppedRecord, RecordPosition, SessionLog } from "./session-log.js";

export interface ReadOptions {
  /** Validate every record against `schemas/` (default true). */
  validate?: boolean;
  /**
   * Keep only each entry's outline (see `outlineOf`), for a reader of the tree's shape that never reads content:
   * the parsed records are then garbage as soon as they are checked, and are never carried through the heap.
   */
  outline?: boolean;
  /**
   * Called with each entry as it is taken, in file order, before it is kept (or outlined), with where its line
   * stands and its length in bytes (for `readEntryAt`; -1 when the entry was migrated and its line no longer says
   * it); lets a reader fold the file while it is read.
   */
  onEntry?: (entry: SessionEntry, at: RecordPosition, lineBytes: number) => void;
}

/** Lines past this are reported; the host still parses them. */
const LONG_LINE_BYTES = 8 * 1024 * 1024;
/** Past this a line cannot become one JavaScript string: the host would fail on the file. */
const MAX_LINE_BYTES = 0x1fffffe8;
const TWO_RECORD_PROBES = 8;

export function readSessionFile(path: string, options: ReadOptions = {}): SessionLog {
  // Each line is done with before the next is taken: one chunk buffer serves the whole file.
  return parseLines(path, linesOfFile(path, { reuse: true }), options);
}

export function parseSessionText(name: string, text: string | Buffer, options: ReadOptions = {}): SessionLog {
  const buffer = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  return parseLines(name, linesOfBuffer(buffer), options);
}

interface Parsed {
  value: Record<string, unknown>;
  at: RecordPosition;
  hostIndex: number;
  /** The line's length in bytes; -1 once the record may differ from its line (migrated). */
  lineBytes?: number;
}

function parseLines(file: string, lines: Iterable<RawLine>, options: ReadOptions): SessionLog {
  const log: SessionLog = {
    file,
    header: null,
    sourceVersion: 1,
    entries: [],
    positions: [],
    diagnostics: [],
    dropped: [],
    unusable: false,
    bytes: 0,
    lines: 0,
    endsWithNewline: true,
  };
  const { diagnostics, dropped } = log;
  const records: Parsed[] = [];
  /** Lines of records nested too deep to print or clone safely. */
  const tooDeep = new Set<number>();
  let hostIndex = 0;
  let firstContentLine = true;
  let firstLineDamaged: RecordPosition | null = null;
  let firstValueNotObject: RecordPosition | null = null;
  /** Set once a v3 header is taken: each later record is then checked as it is read and its parse dropped. */
  let streaming = false;

  for (const raw of lines) {
    log.lines = raw.line;
    log.bytes = raw.byteOffset + raw.bytes.length + (raw.terminated ? 1 : 0);
    log.endsWithNewline = raw.terminated;
    const at = { line: raw.line, byteOffset: raw.byteOffset };
    if (raw.bytes.length > MAX_LINE_BYTES) {
      diagnostics.push(diagnostic("E_LINE_TOO_LONG", at, `line of ${raw.bytes.length} bytes cannot be read`));
      dropped.push({ ...at, code: "E_LINE_TOO_LONG", ids: [], types: [] });
      continue;
    }
    let text = raw.bytes.toString("utf8");
    if (text.trim() === "") continue;
    if (firstContentLine) text = text.trimStart();
    if (raw.bytes.length > LONG_LINE_BYTES) {
      diagnostics.push(diagnostic("W_LONG_LINE", at, `line of ${raw.bytes.length} bytes`));
    }
    if (!isUtf8(raw.bytes)) {
      diagnostics.push(diagnostic("E_UTF8", at, "invalid UTF-8: the host reads the bad bytes as U+FFFD"));
    }
    if (!raw.terminated) {
      diagnostics.push(
        diagnostic(
          "E_TRUNCATED_TAIL",
          at,
          "the last line has no trailing newline: the host would glue its next record onto it and lose both",
        ),
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (firstContentLine) firstLineDamaged = at;
      firstContentLine = false;
      dropped.push(explainBadLine(text, raw, at, error, diagnostics));
      continue;
    }
    firstContentLine = false;
    const index = hostIndex++;
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      diagnostics.push(diagnostic("E_NOT_OBJECT", at, "record is not a JSON object: the host cannot load it"));
      dropped.push({ ...at, code: "E_NOT_OBJECT", ids: [], types: [] });
      if (index === 0) firstValueNotObject = at;
      continue;
    }
    // A record needs at least two bytes per level, so only long lines are walked. Unchecked records after the header
    // are taken as written whatever their depth.
    const checked = !streaming || options.validate !== false;
    if (checked && raw.bytes.length > 2 * MAX_NESTING && nestsDeeper(value)) tooDeep.add(at.line);
    const record = { value: value as Record<string, unknown>, at, hostIndex: index, lineBytes: raw.bytes.length };
    if (streaming) {
      takeRecord(log, record, tooDeep.has(at.line), options);
      continue;
    }
    records.push(record);
    // The header decides alone whether the file loads; a v3 one needs no migration, so nothing else waits.
    if (records.length === 1 && firstValueNotObject === null && !tooDeep.has(at.line)) {
      const v = record.value;
      const current = typeof v.version === "number" && v.version >= 3;
      if (v.type === "session" && typeof v.id === "string" && current) {
        takeHeader(log, records, firstLineDamaged, firstValueNotObject);
        streaming = true;
      }
    }
  }
  if (streaming) return finish(log);

  if (records[0] && tooDeep.has(records[0].at.line)) {
    log.diagnostics.push(
      diagnostic("E_BAD_HEADER", records[0].at, `the session header nests deeper than ${MAX_NESTING} levels`),
    );
    log.unusable = true;
    return finish(log);
  }
  if (!takeHeader(log, records, firstLineDamaged, firstValueNotObject)) return finish(log);

  const migrated = migrateToV3(log, records);
  for (const record of migrated) {
    if (record !== records[0]) takeRecord(log, { ...record, lineBytes: -1 }, tooDeep.has(record.at.line), options);
  }
  return finish(log);
}

/** One record after the header: checked, then kept as an entry (or its stand-in), or dropped as the host does. */
function takeRecord(log: SessionLog, record: Parsed, tooDeep: boolean, options: ReadOptions): void {
  const { diagnostics, dropped } = log;
  const value = record.value;
  if (value.type === "session") {
    diagnostics.push(diagnostic("W_EXTRA_HEADER", record.at, "a second session header: the host ignores it"));
    return;
  }
  if (typeof value.id !== "string") {
    diagnostics.push(diagnostic("E_SCHEMA", record.at, "/id must be a string: the host cannot address this record"));
    dropped.push({
      ...record.at,
      code: "E_SCHEMA",
      ids: [],
      types: typeof value.type === "string" ? [value.type] : [],
    });
    return;
  }
  const entry = entryOf(value as Record<string, unknown> & { id: string }, tooDeep, options, (code, message) =>
    diagnostics.push(diagnostic(code, record.at, message, value.id as string)),
  );
  options.onEntry?.(entry, record.at, record.lineBytes ?? -1);
  log.entries.push(options.outline ? outlineOf(entry) : entry);
  log.positions.push(record.at);
}

/** A record with a string id as the kit keeps it: itself, or a stand-in when its content cannot be read. */
function entryOf(
  value: Record<string, unknown> & { id: string },
  tooDeep: boolean,
  options: ReadOptions,
  report: (code: "W_UNKNOWN_TYPE" | "E_SCHEMA", message: string) => void,
): SessionEntry {
  if (options.validate === false) return value as unknown as SessionEntry;
  const check = tooDeep
    ? { ok: false as const, unknown: false, message: `record nests deeper than ${MAX_NESTING} levels` }
    : checkEntry(value);
  if (check.ok) return value as unknown as SessionEntry;
  const code = check.unknown ? "W_UNKNOWN_TYPE" : "E_SCHEMA";
  const filled = check.unknown || tooDeep ? null : withEmptyContent(value);
  const unreadable = !check.unknown && (filled === null || !checkEntry(filled).ok);
  const note = check.unknown
    ? " (kept, ignored by the kit)"
    : unreadable
      ? ": the kit keeps its place in the tree and leaves its content out of state and views"
      : "";
  report(code, check.message + note);
  return unreadable ? invalidRecordStub(value, value.id) : (value as unknown as SessionEntry);
}

/**
 * The entry of a v3 file's line read again (`at` and `lineBytes` as `onEntry` gave them): the same value the reader
 * took, for a reader that let it go.
 */
export function readEntryAt(
  fd: number,
  at: RecordPosition,
  lineBytes: number,
  options: ReadOptions = {},
): SessionEntry {
  const bytes = Buffer.allocUnsafe(lineBytes);
  let read = 0;
  while (read < lineBytes) {
    const n = readSync(fd, bytes, read, lineBytes - read, at.byteOffset + read);
    if (n === 0) throw new Error(`line ${at.line} ended early`);
    read += n;
  }
  const value = JSON.parse(bytes.toString("utf8")) as Record<string, unknown> & { id: string };
  const tooDeep = lineBytes > 2 * MAX_NESTING && nestsDeeper(value);
  return entryOf(value, tooDeep, options, () => {});
}

/**
 * An entry's place in the tree and what `inspect` counts: type, id, parent, a message's role, a label's target and
 * text. Not a full entry: only for readers that ask for outlines.
 */
function outlineOf(entry: SessionEntry): SessionEntry {
  const outline: Record<string, unknown> = { type: entry.type, id: entry.id, parentId: entry.parentId };
  if (entry.type === "message") outline.message = { role: entry.message?.role };
  else if (entry.type === "label") {
    outline.targetId = entry.targetId;
    outline.label = entry.label;
  }
  return outline as unknown as SessionEntry;
}

function takeHeader(
  log: SessionLog,
  records: Parsed[],
  firstLineDamaged: RecordPosition | null,
  firstValueNotObject: RecordPosition | null,
): boolean {
  const first = records[0];
  const at = first?.at ?? firstLineDamaged ?? { line: 1, byteOffset: 0 };
  const discarded = records.length;
  const what = discarded === 1 ? "its 1 record" : `all ${discarded} records`;
  const loss = discarded > 0 ? `; the host would discard ${what} and overwrite the file on open` : "";
  if (firstValueNotObject) {
    // The host takes the first parsed value as the header, whatever it is, and rejects (or fails on) a non-object.
    const why = `the first record (line ${firstValueNotObject.line}) is not a JSON object, so there is no session header`;
    log.diagnostics.push(diagnostic("E_BAD_HEADER", firstValueNotObject, why + loss));
    log.unusable = true;
    return false;
  }
  if (first === undefined) {
    const why = firstLineDamaged ? "no record can be read" : "the file is empty";
    log.diagnostics.push(diagnostic(firstLineDamaged ? "E_BAD_HEADER" : "E_NO_HEADER", at, why));
    log.unusable = true;
    return false;
  }
  if (first.value.type === "session") {
    if (typeof first.value.id !== "string") {
      log.diagnostics.push(diagnostic("E_BAD_HEADER", at, `the session header has no string id${loss}`));
      log.unusable = true;
      return false;
    }
    log.header = first.value as unknown as SessionHeader;
    const version = first.value.version;
    log.sourceVersion = typeof version === "number" ? version : 1;
    if (log.sourceVersion > 3) {
      log.diagnostics.push(diagnostic("W_NEWER_VERSION", at, `format version ${log.sourceVersion} is newer than 3`));
    }
    return true;
  }
  if (firstLineDamaged) {
    log.diagnostics.push(diagnostic("E_BAD_HEADER", firstLineDamaged, `the header line is damaged${loss}`));
  } else {
    const later = records.find((r) => r.value.type === "session");
    const why = later ? `the session header is at line ${later.at.line}, not first` : "there is no session header";
    log.diagnostics.push(diagnostic("E_NO_HEADER", at, why + loss));
  }
  log.unusable = true;
  return false;
}

function finish(log: SessionLog): SessionLog {
  log.diagnostics.sort((a, b) => a.line - b.line || a.byteOffset - b.byteOffset);
  if (log.diagnostics.some((d) => FATAL_CODES.has(d.code))) log.unusable = true;
  return log;
}

const ID_PATTERN = /"id"\s*:\s*"([^"\\]{1,64})"/;
const TYPE_PATTERN = /"type"\s*:\s*"([A-Za-z_]{1,40})"/;

function guess(fragment: string): { ids: string[]; types: string[] } {
  const head = fragment.slice(0, 4096);
  const id = ID_PATTERN.exec(head)?.[1];
  const type = TYPE_PATTERN.exec(head)?.[1];
  return { ids: id ? [id] : [], types: type ? [type] : [] };
}

function explainBadLine(
  text: string,
  raw: RawLine,
  at: RecordPosition,
  error: unknown,
  diagnostics: Diagnostic[],
): DroppedRecord {
  if (raw.bytes.includes(0)) {
    diagnostics.push(diagnostic("E_NUL", at, "line contains NUL bytes and is not JSON: the host drops it"));
    return { ...at, code: "E_NUL", ...guess(text) };
  }
  const pair = splitTwoRecords(text);
  if (pair) {
    const [a, b] = pair;
    const ids = [a.id, b.id].filter((x): x is string => typeof x === "string");
    const types = [a.type, b.type].filter((x): x is string => typeof x === "string");
    diagnostics.push(
      diagnostic(
        "E_TWO_RECORDS",
        at,
        `two JSON records on one line (${ids.join(", ") || "no ids"}): the host drops both`,
      ),
    );
    return { ...at, code: "E_TWO_RECORDS", ids, types };
  }
  const reason = error instanceof Error ? error.message : String(error);
  const found = guess(text);
  const what = found.ids[0] ? `entry ${found.ids[0]}` : "the record";
  diagnostics.push(diagnostic("E_JSON", at, `not valid JSON (${reason}): the host drops ${what}`, found.ids[0]));
  return { ...at, code: "E_JSON", ...found };
}

function splitTwoRecords(text: string): [Record<string, unknown>, Record<string, unknown>] | null {
  let from = 0;
  for (let probe = 0; probe < TWO_RECORD_PROBES; probe++) {
    const at = text.indexOf("}{", from);
    if (at === -1) return null;
    try {
      const a = JSON.parse(text.slice(0, at + 1));
      const b = JSON.parse(text.slice(at + 1));
      if (a && typeof a === "object" && b && typeof b === "object") return [a, b];
    } catch {
      // not this split
    }
    from = at + 2;
  }
  return null;
}
