import {
  closeSync,
  fstatSync,
  fsyncSync,
  openSync,
  readFileSync,
  readSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";

/**
 * A write of several pages is not atomic under SIGKILL: the kernel stops between pages, so a killed appender can
 * leave part of its records. Before writing, the appender notes where it writes and what, in
 * `<file>.context-kit.journal`; the next appender (under the same lock) completes the cut-short write by appending
 * the rest of it. Only whole lines are ever added, and nothing already in the file changes.
 */
const journalOf = (file: string) => `${file}.context-kit.journal`;

interface Journal {
  at: number;
  payload: string;
}

export function journalAppend(file: string, at: number, payload: Buffer): void {
  writeFileSync(journalOf(file), JSON.stringify({ at, payload: payload.toString("utf8") } satisfies Journal));
}

export function forgetJournal(file: string): void {
  try {
    unlinkSync(journalOf(file));
  } catch {
    // none left
  }
}

function readJournal(file: string): Journal | null {
  try {
    const journal = JSON.parse(readFileSync(journalOf(file), "utf8")) as Journal;
    return Number.isSafeInteger(journal.at) && typeof journal.payload === "string" ? journal : null;
  } catch {
    // none, or itself cut short: then the records were not written yet
    return null;
  }
}

/**
 * Completes an append its process did not finish. Acts only when the file ends inside the journaled records and
 * every byte after `at` is theirs; anything else (the write finished, or someone else wrote since) is left alone.
 * Returns the number of bytes appended.
 */
export function finishInterruptedAppend(file: string): number {
  const journal = readJournal(file);
  if (!journal) return 0;
  const payload = Buffer.from(journal.payload, "utf8");
  let appended = 0;
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const done = size - journal.at;
    if (done > 0 && done < payload.length) {
      const written = Buffer.alloc(done);
      readSync(fd, written, 0, done, journal.at);
      if (written.equals(payload.subarray(0, done))) appended = appendBytes(file, payload.subarray(done));
    }
  } finally {
    closeSync(fd);
  }
  forgetJournal(file);
  return appended;
}

/** Appends all of `bytes` (writeSync may write less than asked), then fsync. */
export function appendBytes(file: string, bytes: Buffer): number {
  const out = openSync(file, "a");
  try {
    let written = 0;
    while (written < bytes.length) written += writeSync(out, bytes, written);
    fsyncSync(out);
    return written;
  } finally {
    closeSync(out);
  }
}
