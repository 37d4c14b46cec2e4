import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { appendBytes, finishInterruptedAppend, forgetJournal, journalAppend } from "./append-journal.js";
import type { SessionEntry } from "./entry-types.js";
import { withFileLock } from "./file-lock.js";

export interface PrefixProof {
  bytes: number;
  sha256: string;
}

export interface AppendResult {
  /** The file before the append, proven unchanged after it. */
  prefix: PrefixProof;
  after: PrefixProof;
  ids: string[];
}

export class AppendRefused extends Error {
  readonly code: "E_TRUNCATED_TAIL" | "E_BAD_HEADER" | "E_PREFIX_CHANGED";
  constructor(code: AppendRefused["code"], message: string) {
    super(message);
    this.code = code;
  }
}

type NewEntry = Omit<SessionEntry, "id"> & { id?: string };

/** Hash of the first `bytes` bytes of an open file. */
function hashPrefix(fd: number, bytes: number): string {
  const hash = createHash("sha256");
  const chunk = Buffer.allocUnsafe(1024 * 1024);
  let offset = 0;
  while (offset < bytes) {
    const read = readSync(fd, chunk, 0, Math.min(chunk.length, bytes - offset), offset);
    if (read === 0) break;
    hash.update(chunk.subarray(0, read));
    offset += read;
  }
  return hash.digest("hex");
}

function checkAppendable(fd: number, size: number, file: string): void {
  if (size === 0)
    throw new AppendRefused("E_BAD_HEADER", `${file}: the file is empty; there is no session header to append to`);
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] !== 0x0a) {
    throw new AppendRefused(
      "E_TRUNCATED_TAIL",
      `${file}: the last line has no trailing newline (an interrupted write?). Appending would glue the new record onto it and the host would lose both. Repair: check the last line, then either complete it or remove it (keep a backup), and try again.`,
    );
  }
  const head = Buffer.alloc(Math.min(size, 64 * 1024));
  readSync(fd, head, 0, head.length, 0);
  const firstLine =
    head
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .split("\n")[0] ?? "";
  let header: { type?: unknown; id?: unknown } | null = null;
  try {
    header = JSON.parse(firstLine);
  } catch {
    header = null;
  }
  if (header?.type !== "session" || typeof header.id !== "string") {
    throw new AppendRefused(
      "E_BAD_HEADER",
      `${file}: line 1 is not a valid session header. The host would discard this file and overwrite it on open. Repair: restore the header from a backup before appending.`,
    );
  }
}

/** An 8-hex id not in `taken`, like the host's. */
export function newEntryId(taken: ReadonlySet<string>, random: () => number = Math.random): string {
  for (;;) {
    const id = Math.floor(random() * 0x100000000)
      .toString(16)
      .padStart(8, "0");
    if (!taken.has(id)) return id;
  }
}

/**
 * Appends whole lines only: one write of complete records under an exclusive lock, then fsync, then proof that the
 * bytes that were there before are unchanged. The records are journaled first, so an append cut short by a killed
 * process is completed by the next appender. Refuses (nothing written) after a truncated last line or a damaged
 * header. Entries without an id get a fresh one that is not in `taken` (the ids already in the file).
 */
export function appendEntries(file: string, taken: ReadonlySet<string>, entries: readonly NewEntry[]): AppendResult {
  return withFileLock(file, () => {
    finishInterruptedAppend(file);
    const fd = openSync(file, "r");
    try {
      const size = fstatSync(fd).size;
      checkAppendable(fd, size, file);
      const before = hashPrefix(fd, size);
      const used = new Set(taken);
      const ids: string[] = [];
      const lines = entries.map((entry) => {
        const id = entry.id ?? newEntryId(used);
        used.add(id);
        ids.push(id);
        return `${JSON.stringify({ ...entry, id })}\n`;
      });
      const payload = Buffer.from(lines.join(""), "utf8");
      journalAppend(file, size, payload);
      appendBytes(file, payload);
      forgetJournal(file);
      const afterSize = fstatSync(fd).size;
      const check = hashPrefix(fd, size);
      if (check !== before) {
        throw new AppendRefused("E_PREFIX_CHANGED", `${file}: the original bytes changed during the append`);
      }
      return {
        prefix: { bytes: size, sha256: before },
        after: { bytes: afterSize, sha256: hashPrefix(fd, afterSize) },
        ids,
      };
    } finally {
      closeSync(fd);
    }
  });
}
