import { readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";

/** A file changed this recently may still be written by a live host. */
export const IDLE_SECONDS = 10;

export interface InUse {
  inUse: boolean;
  reason: string;
}

/**
 * Whether another process may still be writing `file`: one holds it open, names it on its command line (the host
 * opens and closes the file on each append), or it changed within the last IDLE_SECONDS.
 */
export function fileInUse(file: string, ownPid: number, nowMs: number): InUse {
  const age = (nowMs - statSync(file).mtimeMs) / 1000;
  if (age < IDLE_SECONDS)
    return { inUse: true, reason: `it changed ${age.toFixed(1)} s ago (less than ${IDLE_SECONDS} s)` };
  // /proc/<pid>/fd links name the canonical path; the file may have been named through a symlink.
  const real = realpathSync(file);
  for (const pid of processIds()) {
    if (pid === ownPid) continue;
    if (holdsOpen(pid, real)) return { inUse: true, reason: `process ${pid} holds it open` };
    if (namesOnCommandLine(pid, file, real)) {
      return { inUse: true, reason: `process ${pid} was started with it` };
    }
  }
  return { inUse: false, reason: "idle" };
}

function processIds(): number[] {
  try {
    return readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

function holdsOpen(pid: number, file: string): boolean {
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === file) return true;
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    // not ours to read, or gone
  }
  return false;
}

/** Absolute or relative to the process's own working directory (`pi --session ./x.jsonl`). */
function namesOnCommandLine(pid: number, file: string, real: string): boolean {
  let args: string[];
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return false;
  }
  if (args.includes(file) || args.includes(real)) return true;
  const names = new Set([basename(file), basename(real)]);
  const relative = args.filter((arg) => arg !== "" && names.has(basename(arg)));
  if (relative.length === 0) return false;
  try {
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    return relative.some((arg) => canonical(resolve(cwd, arg)) === real);
  } catch {
    return false;
  }
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
