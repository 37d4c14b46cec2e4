import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import type { KitState } from "../../reducers/state.js";
import { type Links, type PackedLinks, unpackLinks } from "./memo-links.js";

/**
 * Beside the database, in `fleet.duckdb.memo/`: each session's memo, the kit's state at each of its leaves and every
 * entry's links, what a later run needs to fold an appended tail alone. A run writes its memos one after another into
 * a pack of its own (`N.pack`), and once they are all written, where each lies (`N.json`); a later pack's memo of a
 * file replaces an earlier one's. Kept out of the database, which would only store these bytes and compress them on
 * every commit; one pack per run, because a file per session cost the index more than its fold of a small session.
 * Each memo names the prefix it describes (the SHA-256 and length the `sessions` row holds), so a memo left by a run
 * that did not commit, or by another database, is never taken for this one's.
 */
export interface Memo {
  states: Record<string, KitState>;
  links: Links;
}

/** A memo as it is written: its links packed (`packLinks`, `packPlaces`). */
export interface PackedMemo {
  states: Record<string, KitState>;
  links: PackedLinks;
}

/** Raised when the kit's state changes shape: a memo of another version is not read (its file is indexed whole). */
const VERSION = 3;

interface MemoFile {
  v: typeof VERSION;
  sha256: string;
  indexedBytes: number;
  states: Record<string, KitState>;
  links: PackedLinks;
}

/** Where a file's memo lies: its pack's number, offset and length. */
type Place = [pack: number, offset: number, length: number];

/** Packs beyond this many are written again as one, with only the memos still in use. */
const MOST_PACKS = 8;

export function memoDir(dbPath: string): string {
  return `${dbPath}.memo`;
}

/** The memo of a file's indexed prefix, as the bytes its pack holds. */
export function packMemo(sha256: string, indexedBytes: number, memo: PackedMemo): Uint8Array {
  const value: MemoFile = { v: VERSION, sha256, indexedBytes, states: memo.states, links: memo.links };
  return Buffer.from(JSON.stringify(value));
}

export function removeMemos(dbPath: string): void {
  rmSync(memoDir(dbPath), { recursive: true, force: true });
}

/** The memos beside a database: read by the files' names, and written by a run into a pack of its own. */
export class MemoStore {
  private readonly dir: string;
  /** Where each file's memo lies: the packs read in order, a later pack's place replacing an earlier one's. */
  private readonly places = new Map<string, Place>();
  private readonly packs: number[];
  private readonly next: number;
  private fd: number | null = null;
  private offset = 0;
  private readonly written = new Map<string, [offset: number, length: number]>();

  private constructor(dbPath: string, packs: number[]) {
    this.dir = memoDir(dbPath);
    this.packs = packs;
    this.next = (packs[packs.length - 1] ?? 0) + 1;
    for (const pack of packs) {
      for (const [file, [offset, length]] of Object.entries(readPlaces(this.dir, pack))) {
        this.places.set(file, [pack, offset, length]);
      }
    }
  }

  /** The memos of the database at `dbPath` (none when it has none yet). */
  static open(dbPath: string): MemoStore {
    let names: string[] = [];
    try {
      names = readdirSync(memoDir(dbPath));
    } catch {}
    const packs = names
      .map((name) => /^(\d+)\.json$/.exec(name)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    return new MemoStore(dbPath, packs);
  }

  /** The memo of `file` when it describes the prefix given (its SHA-256 and length); null when missing or another's. */
  read(file: string, sha256: string, indexedBytes: number): Memo | null {
    const place = this.places.get(file);
    if (place === undefined) return null;
    let value: MemoFile;
    try {
      value = JSON.parse(readPart(join(this.dir, `${place[0]}.pack`), place[1], place[2])) as MemoFile;
    } catch {
      return null;
    }
    if (value?.v !== VERSION || value.sha256 !== sha256 || value.indexedBytes !== indexedBytes) return null;
    return { states: value.states, links: unpackLinks(value.links) };
  }

  /** Adds the memo of `file` (as listed in the tables) to this run's pack. */
  write(file: string, bytes: Uint8Array): void {
    if (this.fd === null) {
      mkdirSync(this.dir, { recursive: true });
      this.fd = openSync(this.packPath(this.next), "w");
    }
    const written = writeSync(this.fd, bytes);
    if (written !== bytes.byteLength) throw new Error(`${this.packPath(this.next)}: a short write (is the disk full?)`);
    this.written.set(file, [this.offset, bytes.byteLength]);
    this.offset += written;
  }

  /**
   * Makes this run's memos the ones read from now on: the pack's places are written (as a whole file, renamed into
   * place), packs no file's memo is read from any more are removed, and past `MOST_PACKS` the memos in use are
   * gathered into one pack.
   */
  finish(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    writePlaces(this.dir, this.next, Object.fromEntries(this.written));
    for (const [file, [offset, length]] of this.written) this.places.set(file, [this.next, offset, length]);
    const used = new Set([...this.places.values()].map(([pack]) => pack));
    const kept: number[] = [];
    for (const pack of [...this.packs, this.next]) {
      if (used.has(pack)) kept.push(pack);
      else this.drop(pack);
    }
    this.clearLeftovers([...kept, this.next]);
    if (kept.length > MOST_PACKS) this.gather(kept);
  }

  /** Packs whose places were never written (a run that failed), half-written places, and memos of the old layout. */
  private clearLeftovers(packs: readonly number[]): void {
    const known = new Set(packs.flatMap((pack) => [`${pack}.pack`, `${pack}.json`]));
    for (const name of readdirSync(this.dir)) {
      if (!known.has(name) && /^(\d+\.pack|\d+\.json\.tmp|[0-9a-f]{40}\.json)$/.test(name)) {
        rmSync(join(this.dir, name), { force: true });
      }
    }
  }

  /** Removes this run's pack after a failure (its places were never written, so nothing reads it). */
  abandon(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    rmSync(this.packPath(this.next), { force: true });
  }

  /** The memos in use, from `packs`, written into one new pack, and the old packs removed. */
  private gather(packs: readonly number[]): void {
    const into = (packs[packs.length - 1] as number) + 1;
    const fd = openSync(this.packPath(into), "w");
    const places: Record<string, [number, number]> = {};
    let offset = 0;
    try {
      for (const [file, [pack, at, length]] of this.places) {
        const bytes = Buffer.from(readPart(this.packPath(pack), at, length), "utf8");
        writeSync(fd, bytes);
        places[file] = [offset, bytes.byteLength];
        offset += bytes.byteLength;
      }
    } finally {
      closeSync(fd);
    }
    writePlaces(this.dir, into, places);
    for (const pack of packs) this.drop(pack);
  }

  /** Removes a pack and its places. */
  private drop(pack: number): void {
    rmSync(join(this.dir, `${pack}.json`), { force: true });
    rmSync(this.packPath(pack), { force: true });
  }

  private packPath(pack: number): string {
    return join(this.dir, `${pack}.pack`);
  }
}

function readPlaces(dir: string, pack: number): Record<string, [number, number]> {
  try {
    return JSON.parse(readFileSync(join(dir, `${pack}.json`), "utf8")) as Record<string, [number, number]>;
  } catch {
    return {};
  }
}

function writePlaces(dir: string, pack: number, places: Record<string, [number, number]>): void {
  const path = join(dir, `${pack}.json`);
  writeFileSync(`${path}.tmp`, JSON.stringify(places));
  renameSync(`${path}.tmp`, path);
}

function readPart(path: string, offset: number, length: number): string {
  const fd = openSync(path, "r");
  try {
    const bytes = Buffer.allocUnsafe(length);
    const got = readSync(fd, bytes, 0, length, offset);
    return bytes.toString("utf8", 0, got);
  } finally {
    closeSync(fd);
  }
}
