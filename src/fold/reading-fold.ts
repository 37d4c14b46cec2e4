import { closeSync, openSync } from "node:fs";
import type { RootReducer } from "../../reducers/root.js";
import type { KitState } from "../../reducers/state.js";
import type { SessionEntry } from "../log/entry-types.js";
import { type ReadOptions, type RecordPosition, readEntryAt } from "../log/read-session.js";
import type { SessionTree } from "../tree/session-tree.js";
import type { StateSource } from "./branch-fold.js";
import { kitReducer } from "./kit-reducer.js";
import { toEvent } from "./to-event.js";

/** A state is kept every this many entries, so a branch that starts from a dropped state re-reads only a few lines. */
const CHECKPOINT_EVERY = 256;

/**
 * The fold of a session file's tree, made while the file is read (`readOptions` for the reader): each entry is reduced
 * as it is taken and then let go, so parsed entries die young instead of all being held to the end. Kept: the state
 * of the latest entry, of every entry the next one did not continue (branch tips), and one in 256. A branch that
 * starts at an entry whose state was let go is folded again from the nearest kept ancestor, its lines read again.
 *
 * Exact only for a file whose parents all come before their children and whose ids are unique (what the host
 * writes); `matches(tree)` says so once the tree is built, and the caller folds the loaded entries otherwise.
 */
export class ReadingFold implements StateSource {
  private readonly parents = new Map<string, string | null>();
  private readonly lines = new Map<string, { at: RecordPosition; bytes: number }>();
  private readonly kept = new Map<string, KitState>();
  /** Parent ids not read before their child: missing parents (roots) unless they turn up later. */
  private readonly unresolved = new Set<string>();
  private latestId: string | null = null;
  private latest: KitState;
  private exact = true;
  private count = 0;
  /** Reducer calls made so far, re-folds included. */
  reductions = 0;

  constructor(
    private readonly file: string,
    private readonly reducer: RootReducer = kitReducer,
    private readonly options: ReadOptions = {},
  ) {
    this.latest = reducer.initialState();
  }

  /** Reader options that fold each entry as it is taken; only outlines are kept. */
  readOptions(): ReadOptions {
    return { ...this.options, outline: true, onEntry: (entry, at, bytes) => this.take(entry, at, bytes) };
  }

  private take(entry: SessionEntry, at: RecordPosition, bytes: number): void {
    if (!this.exact) return;
    const id = entry.id;
    if (bytes < 0 || this.parents.has(id)) {
      this.exact = false;
      return;
    }
    const written = entry.parentId;
    let parent: string | null = written === undefined || written === null || written === id ? null : written;
    if (parent !== null && !this.parents.has(parent)) {
      this.unresolved.add(parent);
      parent = null;
    }
    this.parents.set(id, parent);
    this.lines.set(id, { at, bytes });
    if (this.latestId !== null && parent !== this.latestId) this.kept.set(this.latestId, this.latest);
    const base = parent === null ? this.reducer.initialState() : this.stateAt(parent);
    this.latest = this.reducer.evolve(base, toEvent(entry));
    this.reductions++;
    this.latestId = id;
    if (++this.count % CHECKPOINT_EVERY === 0) this.kept.set(id, this.latest);
  }

  /** Whether the states equal those of the fold of `tree` (built from the same read). */
  matches(tree: SessionTree): boolean {
    if (!this.exact || tree.size !== this.parents.size) return false;
    for (const id of this.unresolved) if (tree.get(id) !== undefined) return false;
    return true;
  }

  /**
   * `matches` without the tree: what it says of the tree built from the entries this fold took (the same ids, as
   * the tree is built from every entry read).
   */
  matchesItself(): boolean {
    if (!this.exact) return false;
    for (const id of this.unresolved) if (this.parents.has(id)) return false;
    return true;
  }

  /** Each entry taken, in file order, with its parent (null for a root): the tree's links when `matchesItself`. */
  parentLinks(): ReadonlyMap<string, string | null> {
    return this.parents;
  }

  /** The state after `id` (after reading); the initial state for null or an unknown id. */
  stateAt(id: string | null): KitState {
    if (id === null || !this.parents.has(id)) return this.reducer.initialState();
    if (id === this.latestId) return this.latest;
    const known = this.kept.get(id);
    if (known !== undefined) return known;
    const path: string[] = [];
    let cursor: string | null = id;
    let state = this.reducer.initialState();
    while (cursor !== null) {
      const at = cursor === this.latestId ? this.latest : this.kept.get(cursor);
      if (at !== undefined) {
        state = at;
        break;
      }
      path.push(cursor);
      cursor = this.parents.get(cursor) ?? null;
    }
    const fd = openSync(this.file, "r");
    try {
      for (let i = path.length - 1; i >= 0; i--) {
        const line = this.lines.get(path[i] as string) as { at: RecordPosition; bytes: number };
        state = this.reducer.evolve(state, toEvent(readEntryAt(fd, line.at, line.bytes, this.options)));
        this.reductions++;
      }
    } finally {
      closeSync(fd);
    }
    this.kept.set(id, state);
    return state;
  }
}
