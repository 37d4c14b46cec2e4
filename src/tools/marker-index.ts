import { type Dirent, lstatSync, readdirSync, type Stats } from "node:fs";
import { relative, sep } from "node:path";
import { makeFold } from "../policy/case-fold.js";
import { MARKER_NAME } from "../policy/constants.js";
import { childPath } from "../policy/path-parts.js";

/**
 * A listing is kept only when its directory's timestamps are this much older than the moment it was read: a change
 * within the same clock tick as the last one would leave them as they were, so a younger listing is read again.
 */
export const SETTLE_MS = 2000;

/** Folders listed ahead of the first search at most (a root such as a home folder can hold far more). */
const PREFILL_DIRS = 20_000;

/** More directories than this and the index starts over (each search then reads what it walks). */
const MAX_DIRS = 200_000;

interface DirNode {
  dev: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  /** Listed long enough after its last change that any later change moves its timestamps. */
  settled: boolean;
  /** Holds an entry named like the marker (any kind of entry, as the policy's probe sees it). */
  marker: boolean;
  /** Paths of its real subdirectories (symlinks are never followed), without the names searches skip. */
  subdirs: string[];
}

function unchanged(node: DirNode, stat: Stats): boolean {
  return (
    node.ino === stat.ino && node.dev === stat.dev && node.mtimeMs === stat.mtimeMs && node.ctimeMs === stat.ctimeMs
  );
}

/**
 * Where the markers are below a searched folder, kept between searches: each search checks every directory it
 * would enter with one `lstat` and lists again only those whose identity or timestamps moved (adding, removing or
 * renaming an entry — a marker among them — changes its folder's). Directories that hold a marker are not entered.
 */
export class MarkerIndex {
  private readonly dirs = new Map<string, DirNode>();
  private readonly fold: (name: string) => string;
  private readonly skip: Set<string>;
  private readonly markerName: string;
  /** Directories listed since the index was made (the rest were taken from earlier listings after an `lstat`). */
  listings = 0;

  constructor(
    caseInsensitive: boolean,
    skipDirNames: Iterable<string>,
    private readonly settleMs = SETTLE_MS,
    private readonly clock: () => number = Date.now,
  ) {
    this.fold = makeFold(caseInsensitive);
    this.skip = new Set([...skipDirNames].map(this.fold));
    this.markerName = this.fold(MARKER_NAME);
  }

  /**
   * Directories below `start` (relative, `/`-separated, sorted, outermost only; `""` for `start` itself) that
   * hold a marker, entering every real subdirectory but those skipped by name. Null when a directory on the way
   * could not be listed.
   */
  excludedBelow(start: string): string[] | null {
    if (this.dirs.size > MAX_DIRS) this.dirs.clear();
    const found: string[] = [];
    const stack = [start];
    for (let path = stack.pop(); path !== undefined; path = stack.pop()) {
      const node = this.current(path);
      if (node === null) return null;
      if (node === undefined) continue;
      if (node.marker) found.push(relative(start, path).split(sep).join("/"));
      else for (const sub of node.subdirs) stack.push(sub);
    }
    return found.sort();
  }

  /**
   * Lists the folders below `start` ahead of the first search, a few milliseconds at a time between other work
   * (never keeping the process alive), up to `maxDirs` folders. Searches check each listing as usual: this only
   * moves the first walk's cost out of the first search.
   */
  prefill(start: string, maxDirs = PREFILL_DIRS, sliceMs = 4): Promise<void> {
    const stack = [start];
    let listed = 0;
    return new Promise((resolve) => {
      const slice = () => {
        const until = performance.now() + sliceMs;
        do {
          const path = stack.pop();
          if (path === undefined || listed >= maxDirs) return resolve();
          const node = this.current(path);
          listed++;
          if (node && !node.marker) for (const sub of node.subdirs) stack.push(sub);
        } while (performance.now() < until);
        setTimeout(slice, 0).unref();
      };
      setTimeout(slice, 0).unref();
    });
  }

  /** The directory's node, listed again when it moved; undefined when it is gone, null when it cannot be read. */
  private current(path: string): DirNode | null | undefined {
    let stat: Stats | undefined;
    try {
      stat = lstatSync(path, { throwIfNoEntry: false });
    } catch {
      return null;
    }
    const known = this.dirs.get(path);
    if (stat === undefined || !stat.isDirectory()) {
      if (known) this.forget(path, known);
      return undefined;
    }
    if (known?.settled && unchanged(known, stat)) return known;
    const readAt = this.clock();
    let entries: Dirent[];
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch {
      if (known) this.forget(path, known);
      return null;
    }
    this.listings++;
    // One plain loop: the first search lists every folder, before any of this is optimised.
    const subdirs: string[] = [];
    let marker = false;
    for (const entry of entries) {
      const name = this.fold(entry.name);
      if (name === this.markerName) marker = true;
      else if (entry.isDirectory() && !this.skip.has(name)) subdirs.push(childPath(path, entry.name));
    }
    const node: DirNode = {
      dev: stat.dev,
      ino: stat.ino,
      mtimeMs: stat.mtimeMs,
      ctimeMs: stat.ctimeMs,
      settled: readAt - Math.max(stat.mtimeMs, stat.ctimeMs) > this.settleMs,
      marker,
      subdirs,
    };
    if (known) {
      const kept = new Set(node.subdirs);
      for (const sub of known.subdirs) if (!kept.has(sub)) this.forgetPath(sub);
    }
    this.dirs.set(path, node);
    return node;
  }

  private forgetPath(path: string): void {
    const known = this.dirs.get(path);
    if (known) this.forget(path, known);
  }

  private forget(path: string, node: DirNode): void {
    this.dirs.delete(path);
    for (const sub of node.subdirs) this.forgetPath(sub);
  }
}
