import { hash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { KitState } from "../../reducers/state.js";
import { type Links, type PackedLinks, packLinks, unpackLinks } from "./memo-links.js";

/**
 * Beside the database, one file per indexed session: the kit's state at each of its leaves and every entry's links,
 * what a later run needs to fold an appended tail alone. Kept out of the database, which would only store these bytes
 * and compress them on every commit. Each names the prefix it describes (the SHA-256 and length the `sessions` row
 * holds), so a memo left by a run that did not commit, or by another database, is never taken for this one's.
 */
export interface Memo {
  states: Record<string, KitState>;
  links: Links;
}

interface MemoFile {
  v: 2;
  sha256: string;
  indexedBytes: number;
  states: Record<string, KitState>;
  links: PackedLinks;
}

export function memoDir(dbPath: string): string {
  return `${dbPath}.memo`;
}

function memoPath(dbPath: string, file: string): string {
  return join(memoDir(dbPath), `${hash("sha256", file, "hex").slice(0, 40)}.json`);
}

/** The memo of a file's indexed prefix, as the bytes its memo file holds. */
export function packMemo(sha256: string, indexedBytes: number, memo: Memo): Uint8Array {
  const value: MemoFile = { v: 2, sha256, indexedBytes, states: memo.states, links: packLinks(memo.links) };
  return Buffer.from(JSON.stringify(value));
}

/** Writes the memo of `file` (as listed in the tables), replacing any earlier one. */
export function writeMemo(dbPath: string, file: string, bytes: Uint8Array): void {
  const path = memoPath(dbPath, file);
  try {
    writeFileSync(path, bytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(memoDir(dbPath), { recursive: true });
    writeFileSync(path, bytes);
  }
}

/** The memo of `file` when it describes the prefix given (its SHA-256 and length); null when missing or another's. */
export function readMemo(dbPath: string, file: string, sha256: string, indexedBytes: number): Memo | null {
  let value: MemoFile;
  try {
    value = JSON.parse(readFileSync(memoPath(dbPath, file), "utf8")) as MemoFile;
  } catch {
    return null;
  }
  if (value?.v !== 2 || value.sha256 !== sha256 || value.indexedBytes !== indexedBytes) return null;
  return { states: value.states, links: unpackLinks(value.links) };
}

export function removeMemos(dbPath: string): void {
  rmSync(memoDir(dbPath), { recursive: true, force: true });
}
