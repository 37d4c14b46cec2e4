import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** Files up to this size are read into one buffer kept for the next file (see `readComplete`). */
const REUSED_BYTES = 16 << 20;
let reused = Buffer.allocUnsafeSlow(0);

/**
 * The bytes the index may read: up to the last newline of the size seen now (a line still being written waits).
 * With `reuse`, a file of up to 16 MiB is read into a buffer this thread keeps for the next such read, so the data
 * is valid only until then: memory the process has touched before costs no page faults, and those cost the
 * whole-folder index more than reading its files.
 */
export function readComplete(
  path: string,
  reuse = false,
): { data: Buffer; size: number; mtimeMs: number; torn: number } {
  const fd = openSync(path, "r");
  try {
    const stat = fstatSync(fd);
    const data = reuse && stat.size <= REUSED_BYTES ? reusedBuffer(stat.size) : Buffer.allocUnsafe(stat.size);
    let got = 0;
    while (got < stat.size) {
      const n = readSync(fd, data, got, stat.size - got, got);
      if (n === 0) break;
      got += n;
    }
    const end = data.lastIndexOf(0x0a, got - 1) + 1;
    return { data: data.subarray(0, end), size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs), torn: got - end };
  } finally {
    closeSync(fd);
  }
}

function reusedBuffer(size: number): Buffer {
  if (reused.length < size) reused = Buffer.allocUnsafeSlow(Math.min(REUSED_BYTES, Math.max(size, reused.length * 2)));
  return reused.subarray(0, size);
}
