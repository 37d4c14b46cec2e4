import { closeSync, openSync } from "node:fs";
import type { RootReducer } from "../../reducers/root.js";
import type { KitState } from "../../reducers/state.js";
import type { SessionEntry } from "../log/entry-types.js";
import { type ReadOptions, type RecordPosition, readEntryAt } from "../log/read-session.js";
import type { SessionTree } from "../tree/session-tree.js";
import { TreeLinks } from "../tree/tree-links.js";
import { BranchFold, type EntrySource, type StateSource } from "./branch-fold.js";
import { kitReducer } from "./kit-reducer.js";

/** A state is kept every this many entries, so a branch that starts from a dropped state re-reads only a few lines. */
const CHECKPOINT_EVERY = 256;

/**
 * The fold of a session file's tree, made while the file is read (`readOptions` for the reader): each entry is folded
 * as it is taken (`BranchFold.advance`) and then let go, so parsed entries die young instead of all being held to the
 * end. Kept: the state of the latest entry, of every entry the next one did not continue (branch tips), and one in
 * 256. A branch that starts at an entry whose state was let go is folded again from the nearest kept ancestor, its
 * lines read again from the file.
 *
 * Exact only for a file whose parents all come before their children and whose ids are unique (what the host
 * writes); `matches(tree)` says so once the tree is built, and the caller folds the loaded entries otherwise.
 */
export class ReadingFold implements StateSource, EntrySource {
  /** The links of every entry taken, and the tree's shape from them, as they are read. */
  private readonly links = new TreeLinks();
  /** Where each entry's line is and its length in bytes, by its place in file order. */
  private readonly lineAt: RecordPosition[] = [];
  private readonly bytesAt: number[] = [];
  private readonly kept = new Set<string>();
  private readonly fold: BranchFold;
  /** Parent ids not read before their child: missing parents (roots) unless they turn up later. */
  private readonly unresolved = new Set<string>();
  private latestId: string | null = null;
  private exact = true;

  constructor(
    private readonly file: string,
    reducer: RootReducer = kitReducer,
    private readonly options: ReadOptions = {},
  ) {
    this.fold = new BranchFold(this, reducer, this.kept);
  }

  /** Reducer calls made so far, re-folds included. */
  get reductions(): number {
    return this.fold.reductions;
  }

  /** Reader options that fold each entry as it is taken; only outlines are kept. */
  readOptions(): ReadOptions {
    return { ...this.options, outline: true, onEntry: (entry, at, bytes) => this.take(entry, at, bytes) };
  }

  private take(entry: SessionEntry, at: RecordPosition, bytes: number): void {
    if (!this.exact) return;
    const id = entry.id;
    const written = entry.parentId;
    let parent: string | null = written === undefined || written === null || written === id ? null : written;
    if (parent !== null && parent !== this.latestId && !this.links.has(parent)) {
      this.unresolved.add(parent);
      parent = null;
    }
    // A migrated record, or an id taken twice: the fold no longer stands for the file.
    if (!this.links.add(id, parent) || bytes < 0) {
      this.exact = false;
      return;
    }
    this.lineAt.push(at);
    this.bytesAt.push(bytes);
    if (this.latestId !== null && parent !== this.latestId) this.kept.add(this.latestId);
    if (this.links.size % CHECKPOINT_EVERY === 0) this.kept.add(id);
    this.fold.advance(entry, parent);
    this.latestId = id;
  }

  /** Whether the states equal those of the fold of `tree` (built from the same read). */
  matches(tree: SessionTree): boolean {
    if (!this.exact || tree.size !== this.links.size) return false;
    for (const id of this.unresolved) if (tree.get(id) !== undefined) return false;
    return true;
  }

  /**
   * `matches` without the tree: what it says of the tree built from the entries this fold took (the same ids, as
   * the tree is built from every entry read).
   */
  matchesItself(): boolean {
    if (!this.exact) return false;
    for (const id of this.unresolved) if (this.links.has(id)) return false;
    return true;
  }

  /**
   * The links of the entries taken, in file order (a parent not read before its child left out): the tree's when
   * `matchesItself`.
   */
  treeLinks(): TreeLinks {
    return this.links;
  }

  /** The state after `id` (after reading); the initial state for null or an unknown id. */
  stateAt(id: string | null): KitState {
    return this.fold.stateAt(id !== null && this.links.has(id) ? id : null);
  }

  /** An entry taken, read again from its line. */
  get(id: string): SessionEntry | undefined {
    return this.getMany([id])[0];
  }

  parentOf(id: string): string | null {
    return this.links.parentOf(id);
  }

  getMany(ids: readonly string[]): (SessionEntry | undefined)[] {
    if (ids.length === 0) return [];
    const fd = openSync(this.file, "r");
    try {
      return ids.map((id) => {
        const place = this.links.place(id);
        if (place === undefined) return undefined;
        return readEntryAt(fd, this.lineAt[place] as RecordPosition, this.bytesAt[place] as number, this.options);
      });
    } finally {
      closeSync(fd);
    }
  }
}
