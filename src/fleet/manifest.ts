import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import type { FileItem } from "../files/file-pool.js";

/**
 * Beside the database, what it holds of each file (its stat when indexed, and the size and SHA-256 of the part
 * indexed), and the stat of the database file and of its write-ahead log when that was written: a run over files none
 * of which changed is answered from here, one `stat` per file, without loading DuckDB. A manifest whose stats are not
 * the database's now (written since, replaced) is ignored, and the run asks the database.
 */
export interface Manifest {
  version: 2;
  db: FileStat;
  /** The write-ahead log beside the database, if any: a run that only appended tails leaves them there. */
  wal: FileStat | null;
  files: Record<string, ManifestFile>;
}

interface FileStat {
  size: number;
  mtimeMs: number;
  ino: number;
}

export type ManifestFile = [path: string, size: number, mtimeMs: number, indexedBytes: number, sha256: string];

export function manifestPath(dbPath: string): string {
  return `${dbPath}.files.json`;
}

/** The manifest, when it describes the database as it is now; otherwise null (missing, corrupt, stale). */
export function readManifest(dbPath: string): Manifest | null {
  const db = fileStat(dbPath);
  if (db === null) return null;
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(manifestPath(dbPath), "utf8"));
  } catch {
    return null;
  }
  if (!isManifest(manifest)) return null;
  return sameStat(manifest.db, db) && sameStat(manifest.wal, fileStat(`${dbPath}.wal`)) ? manifest : null;
}

function fileStat(path: string): FileStat | null {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino } : null;
}

function sameStat(a: FileStat | null, b: FileStat | null): boolean {
  if (a === null || b === null) return a === b;
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

function isManifest(value: unknown): value is Manifest {
  const m = value as Manifest | null;
  return (
    typeof m === "object" &&
    m !== null &&
    m.version === 2 &&
    typeof m.db === "object" &&
    m.db !== null &&
    typeof m.wal === "object" &&
    typeof m.files === "object" &&
    m.files !== null &&
    Object.values(m.files).every((f) => Array.isArray(f) && f.length === 5)
  );
}

/** The items the manifest does not hold as they are now: new files, and files at another path, size or time. */
export function changedItems(manifest: Manifest, items: readonly FileItem[]): FileItem[] {
  const changed: FileItem[] = [];
  for (const item of items) {
    const known = Object.hasOwn(manifest.files, item.shown) ? manifest.files[item.shown] : undefined;
    const stat = known !== undefined && known[0] === item.path && statSync(item.path, { throwIfNoEntry: false });
    if (!stat || stat.size !== known[1] || Math.trunc(stat.mtimeMs) !== known[2]) changed.push(item);
  }
  return changed;
}

/** Writes the manifest for the database as it is now (closed, after its last commit). */
export function writeManifest(dbPath: string, files: Record<string, ManifestFile>): void {
  const manifest: Manifest = {
    version: 2,
    db: fileStat(dbPath) as FileStat,
    wal: fileStat(`${dbPath}.wal`),
    files,
  };
  const path = manifestPath(dbPath);
  writeFileSync(`${path}.tmp`, JSON.stringify(manifest));
  renameSync(`${path}.tmp`, path);
}

export function removeManifest(dbPath: string): void {
  rmSync(manifestPath(dbPath), { force: true });
}
