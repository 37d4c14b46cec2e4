import type { Stats } from "node:fs";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
} from "node:fs";

/** Bytes read from the start of a regular file that was opened without following a final symlink. */
export interface FileHead {
  bytes: Buffer;
  size: number;
}

/** The few synchronous file-system calls the policy makes; injectable so tests can simulate errors. */
export interface PolicyFs {
  lstat(path: string): Stats;
  realpath(path: string): string;
  readlink(path: string): string;
  readdir(path: string): string[];
  /** Opens without following a final symlink; throws `ENOTFILE`-coded errors for anything but a regular file. */
  readHead(path: string, maxBytes: number): FileHead;
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

function notAFile(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`not a regular file: ${path}`), { code: "ENOTFILE" });
}

export const nodePolicyFs: PolicyFs = {
  lstat: (path) => lstatSync(path),
  realpath: (path) => realpathSync.native(path),
  readlink: (path) => readlinkSync(path),
  readdir: (path) => readdirSync(path),
  readHead(path, maxBytes) {
    const fd = openSync(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw notAFile(path);
      const bytes = Buffer.alloc(Math.min(maxBytes, stat.size));
      let filled = 0;
      while (filled < bytes.length) {
        const n = readSync(fd, bytes, filled, bytes.length - filled, filled);
        if (n === 0) break;
        filled += n;
      }
      return { bytes: bytes.subarray(0, filled), size: stat.size };
    } finally {
      closeSync(fd);
    }
  },
};

/**
 * `fs.lstat` that returns undefined for an absent path instead of throwing (a thrown ENOENT costs about 10 µs, five
 * times the call itself; marker probes miss on nearly every directory). An injected file system keeps its own lstat.
 */
export function lstatOrAbsent(fs: PolicyFs): (path: string) => Stats | undefined {
  if (fs === nodePolicyFs) return (path) => lstatSync(path, { throwIfNoEntry: false });
  return (path) => fs.lstat(path);
}

export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** Absent: the path (or a parent) does not exist, so nothing is there to decide about. */
export function isAbsent(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}
