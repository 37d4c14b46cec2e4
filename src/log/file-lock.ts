import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";

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

/** A lock file without a readable owner this old was left by a writer that died mid-way (older kit versions). */
const EMPTY_LOCK_GRACE_MS = 2000;

/**
 * An exclusive lock between kit processes: `<file>.context-kit.lock`, holding the owner's pid. It appears whole or
 * not at all (the pid is written to a private file first, then hard-linked into place, which fails if the lock
 * exists). A lock whose owner is gone is taken over.
 */
export function withFileLock<T>(file: string, fn: () => T, timeoutMs = 10_000): T {
  const lock = `${file}.context-kit.lock`;
  const mine = `${lock}.${process.pid}`;
  const deadline = Date.now() + timeoutMs;
  writeFileSync(mine, String(process.pid));
  try {
    for (;;) {
      try {
        linkSync(mine, lock);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const owner = Number.parseInt(safeRead(lock), 10);
        const dead = Number.isFinite(owner) ? !alive(owner) : ageMs(lock) > EMPTY_LOCK_GRACE_MS;
        if (dead) {
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
  } finally {
    try {
      unlinkSync(mine);
    } catch {
      // already gone
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

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
