import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** One physical line of a JSONL file: the bytes between two `\n`, without the `\n`. */
export interface RawLine {
  bytes: Buffer;
  /** 1-based line number. */
  line: number;
  /** Offset of the first byte of the line in the file. */
  byteOffset: number;
  /** False only for a last line that is not followed by `\n`. */
  terminated: boolean;
}

const CHUNK_BYTES = 4 * 1024 * 1024;
const MIN_CHUNK_BYTES = 64 * 1024;

/**
 * Splits on `\n` only (never readline: U+2028/2029 are legal inside JSON strings). The caller gets raw bytes so that
 * decoding problems can be reported per line.
 */
export function* linesOfBuffer(buffer: Buffer): Generator<RawLine> {
  let line = 1;
  let start = 0;
  while (start < buffer.length) {
    const nl = buffer.indexOf(0x0a, start);
    if (nl === -1) {
      yield { bytes: buffer.subarray(start), line, byteOffset: start, terminated: false };
      return;
    }
    yield { bytes: buffer.subarray(start, nl), line, byteOffset: start, terminated: true };
    start = nl + 1;
    line++;
  }
}

/**
 * Streams a file of any size in chunks of up to 4 MB; memory holds one chunk plus the line being assembled. Each
 * chunk is a fresh buffer and the lines are views into it (no copy per line), so a line stays valid after the next
 * one is read; only a line that spans chunks is copied together.
 *
 * With `reuse`, one buffer is read into again for every chunk, so a line is valid only until the next one is taken
 * (the end of a chunk that a line continues past is copied out first). Fresh chunks are freed only when the collector
 * gets to them, and a reader that keeps little does that rarely: they held up to about 100 MB of a process's memory.
 */
export function* linesOfFile(path: string, options: { reuse?: boolean } = {}): Generator<RawLine> {
  const fd = openSync(path, "r");
  try {
    let pending: Buffer[] = [];
    let pendingOffset = 0;
    let fileOffset = 0;
    let line = 1;
    let expected = fstatSync(fd).size;
    let spare: Buffer | null = null;
    for (;;) {
      // Sized to what is left of the file (plus one byte to see its end), so a small file needs no 4 MB buffer.
      const size = Math.min(CHUNK_BYTES, Math.max(expected - fileOffset + 1, MIN_CHUNK_BYTES));
      const buffer: Buffer = spare !== null && spare.length >= size ? spare : Buffer.allocUnsafe(size);
      if (options.reuse) spare = buffer;
      const read = readSync(fd, buffer, 0, size, null);
      if (read === 0) break;
      const chunk = read === buffer.length ? buffer : buffer.subarray(0, read);
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        if (nl === -1) break;
        const piece = chunk.subarray(start, nl);
        const bytes = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
        const byteOffset = pending.length === 0 ? fileOffset + start : pendingOffset;
        pending = [];
        yield { bytes, line, byteOffset, terminated: true };
        line++;
        start = nl + 1;
      }
      if (start < read) {
        if (pending.length === 0) pendingOffset = fileOffset + start;
        const rest = chunk.subarray(start, read);
        pending.push(options.reuse ? Buffer.from(rest) : rest);
      }
      fileOffset += read;
      if (fileOffset > expected) expected = fileOffset;
    }
    if (pending.length > 0) {
      yield { bytes: Buffer.concat(pending), line, byteOffset: pendingOffset, terminated: false };
    }
  } finally {
    closeSync(fd);
  }
}
