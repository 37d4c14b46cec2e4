import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";

export class LockError extends Error {
  readonly code = "E_LOCKED";
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * An exclusive lock between kit processes: `<file>.context-kit.lock`, created with O_EXCL and holding the owner's
 * pid. A lock whose owner is gone is taken over.
 */
export function withFileLock<T>(file: string, fn: () => T, timeoutMs = 10_000): T {
  const lock = `${file}.context-kit.lock`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number.parseInt(safeRead(lock), 10);
      if (Number.isFinite(owner) && !alive(owner)) {
        try {
          unlinkSync(lock);
        } catch {
          // another process took it over first
        }
        continue;
      }
      if (Date.now() > deadline) throw new LockError(`${file} is locked by process ${owner || "?"} (${lock})`);
      sleep(5);
    }
  }
  try {
    return fn();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // already gone
    }
  }
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
