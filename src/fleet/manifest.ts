import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import type { FileItem } from "../cli/file-pool.js";

/**
 * Beside the database, what it holds of each file (its stat when indexed, and the size and SHA-256 of the part
 * indexed), and the database file's own stat when that was written: a run over files none of which changed is
 * answered from here, one `stat` per file, without loading DuckDB. A manifest whose database stat is not the
 * database's now (written since, a write-ahead log pending, replaced) is ignored, and the run asks the database.
 */
export interface Manifest {
  version: 1;
  db: { size: number; mtimeMs: number; ino: number };
  files: Record<string, ManifestFile>;
}

export type ManifestFile = [path: string, size: number, mtimeMs: number, indexedBytes: number, sha256: string];

export function manifestPath(dbPath: string): string {
  return `${dbPath}.files.json`;
}

/** The manifest, when it describes the database as it is now; otherwise null (missing, corrupt, stale). */
export function readManifest(dbPath: string): Manifest | null {
  const db = statSync(dbPath, { throwIfNoEntry: false });
  if (!db || existsSync(`${dbPath}.wal`)) return null;
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(manifestPath(dbPath), "utf8"));
  } catch {
    return null;
  }
  if (!isManifest(manifest)) return null;
  const m = manifest.db;
  return m.size === db.size && m.mtimeMs === db.mtimeMs && m.ino === db.ino ? manifest : null;
}

function isManifest(value: unknown): value is Manifest {
  const m = value as Manifest | null;
  return (
    typeof m === "object" &&
    m !== null &&
    m.version === 1 &&
    typeof m.db === "object" &&
    m.db !== null &&
    typeof m.files === "object" &&
    m.files !== null &&
    Object.values(m.files).every((f) => Array.isArray(f) && f.length === 5)
  );
}

/** Whether every item is a file the manifest holds, at the same path, size and modification time. */
export function unchangedSince(manifest: Manifest, items: readonly FileItem[]): boolean {
  for (const item of items) {
    const known = Object.hasOwn(manifest.files, item.shown) ? manifest.files[item.shown] : undefined;
    if (known === undefined || known[0] !== item.path) return false;
    const stat = statSync(item.path, { throwIfNoEntry: false });
    if (!stat || stat.size !== known[1] || Math.trunc(stat.mtimeMs) !== known[2]) return false;
  }
  return true;
}

/** Writes the manifest for the database as it is now (closed, after its last commit). */
export function writeManifest(dbPath: string, files: Record<string, ManifestFile>): void {
  const db = statSync(dbPath);
  const manifest: Manifest = { version: 1, db: { size: db.size, mtimeMs: db.mtimeMs, ino: db.ino }, files };
  const path = manifestPath(dbPath);
  writeFileSync(`${path}.tmp`, JSON.stringify(manifest));
  renameSync(`${path}.tmp`, path);
}

export function removeManifest(dbPath: string): void {
  rmSync(manifestPath(dbPath), { force: true });
}
