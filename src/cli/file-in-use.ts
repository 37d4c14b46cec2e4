import { readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { liveLease } from "../log/session-lease.js";

/** A file changed this recently may still be written by a live host. */
export const IDLE_SECONDS = 10;

export interface InUse {
  inUse: boolean;
  reason: string;
}

/**
 * Whether a live host may still write `file`: it changed within the last IDLE_SECONDS; a kit running inside a host
 * holds its lease; another process holds it open for writing; or a Pi process works on it (names it on its command
 * line, or runs in the session's directory). A process that merely names the file (a wrapper such as `timeout`, a
 * shell, a reader) does not count.
 */
export function fileInUse(file: string, ownPid: number, nowMs: number, sessionCwd?: string | null): InUse {
  const age = (nowMs - statSync(file).mtimeMs) / 1000;
  if (age < IDLE_SECONDS)
    return { inUse: true, reason: `it changed ${age.toFixed(1)} s ago (less than ${IDLE_SECONDS} s)` };
  const lease = liveLease(file, ownPid);
  if (lease) return { inUse: true, reason: `a Pi process with the kit (pid ${lease.pid}) holds its lease` };
  // /proc/<pid>/fd links name the canonical path; the file may have been named through a symlink.
  const real = realpathSync(file);
  const cwd = sessionCwd ? canonical(sessionCwd) : null;
  for (const pid of processIds()) {
    if (pid === ownPid) continue;
    if (holdsOpenForWriting(pid, real)) return { inUse: true, reason: `process ${pid} holds it open for writing` };
    const args = commandLine(pid);
    if (!args || !isPiProcess(pid, args)) continue;
    if (namesFile(pid, args, file, real)) return { inUse: true, reason: `Pi process ${pid} was started with it` };
    if (cwd !== null && workingDirectory(pid) === cwd) {
      return { inUse: true, reason: `Pi process ${pid} runs in the session's directory ${cwd}` };
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

const ACCESS_MODE = 0o3;

function holdsOpenForWriting(pid: number, file: string): boolean {
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) !== file) continue;
        const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8"))?.[1];
        // O_WRONLY or O_RDWR; unknown flags count as writing
        if (flags === undefined || (Number.parseInt(flags, 8) & ACCESS_MODE) !== 0) return true;
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    // not ours to read, or gone
  }
  return false;
}

function commandLine(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8")
      .split("\0")
      .filter((arg) => arg !== "");
  } catch {
    return null;
  }
}

const PI_ENTRIES = [
  /(^|\/)pi$/,
  /(^|\/)pi-context$/,
  /pi-coding-agent\/dist\/cli\.js$/,
  /dist\/src\/pi\/launcher-main\.js$/,
];

/** The host's CLI (`pi`, its `cli.js` under node) or the kit's launcher, by the first arguments or the process name. */
function isPiProcess(pid: number, args: readonly string[]): boolean {
  if (args.slice(0, 3).some((arg) => PI_ENTRIES.some((entry) => entry.test(arg)))) return true;
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "pi";
  } catch {
    return false;
  }
}

function workingDirectory(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
}

/** Absolute or relative to the process's own working directory (`pi --session ./x.jsonl`). */
function namesFile(pid: number, args: readonly string[], file: string, real: string): boolean {
  if (args.includes(file) || args.includes(real)) return true;
  const names = new Set([basename(file), basename(real)]);
  const relative = args.filter((arg) => names.has(basename(arg)));
  if (relative.length === 0) return false;
  const cwd = workingDirectory(pid);
  return cwd !== null && relative.some((arg) => canonical(resolve(cwd, arg)) === real);
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
