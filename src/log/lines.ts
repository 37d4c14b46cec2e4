import { closeSync, openSync, readSync } from "node:fs";

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

/** Streams a file of any size in fixed chunks; memory holds one chunk plus the line being assembled. */
export function* linesOfFile(path: string): Generator<RawLine> {
  const fd = openSync(path, "r");
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let pending: Buffer[] = [];
    let pendingOffset = 0;
    let fileOffset = 0;
    let line = 1;
    for (;;) {
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (read === 0) break;
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        if (nl === -1 || nl >= read) break;
        const piece = chunk.subarray(start, nl);
        const bytes = pending.length === 0 ? Buffer.from(piece) : Buffer.concat([...pending, piece]);
        const byteOffset = pending.length === 0 ? fileOffset + start : pendingOffset;
        pending = [];
        yield { bytes, line, byteOffset, terminated: true };
        line++;
        start = nl + 1;
      }
      if (start < read) {
        if (pending.length === 0) pendingOffset = fileOffset + start;
        pending.push(Buffer.from(chunk.subarray(start, read)));
      }
      fileOffset += read;
    }
    if (pending.length > 0) {
      yield { bytes: Buffer.concat(pending), line, byteOffset: pendingOffset, terminated: false };
    }
  } finally {
    closeSync(fd);
  }
}
