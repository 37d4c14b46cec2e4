import type { Dirent, Stats } from "node:fs";
import { constants } from "node:fs";
import { lstat, open, readdir, stat } from "node:fs/promises";

export interface ReadHandle {
  stat(): Promise<Stats>;
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/** Every file-system call the guarded tools make, injectable for tests that need an errno the OS won't produce. */
export interface ToolFileOperations {
  stat(path: string): Promise<Stats>;
  lstat(path: string): Promise<Stats>;
  readdir(path: string): Promise<Dirent[]>;
  /** Opens for reading without following a final symlink and without blocking on FIFOs. */
  openRead(path: string): Promise<ReadHandle>;
  /** Creates or truncates a file without following a final symlink; never creates parent directories. */
  writeFile(path: string, data: string): Promise<void>;
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

export const nodeToolFileOperations: ToolFileOperations = {
  stat: (path) => stat(path),
  lstat: (path) => lstat(path),
  readdir: (path) => readdir(path, { withFileTypes: true }),
  openRead: (path) => open(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK),
  async writeFile(path, data) {
    const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW, 0o666);
    try {
      await handle.writeFile(data, "utf8");
    } finally {
      await handle.close();
    }
  },
};

/** Reads up to `length` bytes from `position`, looping over short reads. */
export async function readExactly(handle: ReadHandle, length: number, position = 0): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
