import type { RootReducer } from "../../reducers/root.js";
import type { KitState } from "../../reducers/state.js";
import type { SessionEntry } from "../log/entry-types.js";
import type { FileOrder } from "../tree/file-order.js";
import { toEvent } from "./to-event.js";

/** What the views read states from: a `BranchFold`, or a `ReadingFold` made while the file was read. */
export interface StateSource {
  /** The state after `id`; the initial state for null or an unknown id. */
  stateAt(id: string | null): KitState;
}

/** Where the fold finds entries: a `SessionTree`, the live host's session manager, or the lines of a file read. */
export interface EntrySource {
  get(id: string): SessionEntry | undefined;
  /** Null for a root, an orphan, or an entry whose parent link was cut. */
  parentOf(id: string): string | null;
  /** The entries of `ids` at once, in that order (a file source reads them with one open); `get` of each if absent. */
  getMany?(ids: readonly string[]): (SessionEntry | undefined)[];
  /**
   * The entries from `id` up its path, nearest first, until one whose id `known` has (left out, and named as `stop`;
   * null when a root was passed): the climb `parentOf` and `get` make, in one call (a loaded tree walks its places).
   */
  pathUp?(id: string, known: ReadonlyMap<string, unknown>): { entries: SessionEntry[]; stop: string | null };
}

/**
 * `state(entry) = evolve(state(parent), entry)`, memoised by entry id across the whole tree: each entry is reduced
 * once however many branches share it, and a newly appended entry costs one reducer call. Every state asked for is
 * remembered; of the states passed on the way, those in `kept` (all when it is null). A set, not a predicate: a
 * closure made per fold would be a new call target for the optimised fold each time.
 */
export class BranchFold implements StateSource {
  private readonly memo = new Map<string, KitState>();
  /** The entry `advance` took last and its state, held apart from the memo until the next one is taken. */
  private latestId: string | null = null;
  private latestState: KitState | undefined;
  /** Reducer calls made so far; tests use it to prove the incremental cost. */
  reductions = 0;

  constructor(
    private readonly source: EntrySource,
    private readonly reducer: RootReducer,
    private readonly kept: ReadonlySet<string> | null = null,
  ) {}

  initialState(): KitState {
    return this.reducer.initialState();
  }

  /** The state after `id`; the initial state for null or an unknown id. */
  stateAt(id: string | null): KitState {
    if (id === null) return this.reducer.initialState();
    if (id === this.latestId) return this.latestState as KitState;
    const known = this.memo.get(id);
    if (known) return known;
    if (this.source.pathUp) {
      const { entries, stop } = this.source.pathUp(id, this.memo);
      return this.foldUp(entries, stop === null ? this.reducer.initialState() : (this.memo.get(stop) as KitState));
    }
    const ids: string[] = [];
    let cursor: string | null = id;
    let state: KitState | undefined;
    while (cursor !== null) {
      state = this.memo.get(cursor);
      if (state) break;
      ids.push(cursor);
      cursor = this.source.parentOf(cursor);
    }
    const entries = this.source.getMany ? this.source.getMany(ids) : ids.map((at) => this.source.get(at));
    // An entry the source does not have cuts the path: the entries after it are folded from the initial state.
    let from = entries.indexOf(undefined);
    if (from < 0) from = entries.length;
    else state = undefined;
    return this.foldUp(entries.slice(0, from) as SessionEntry[], state ?? this.reducer.initialState());
  }

  /** Folds `entries` (a path read upwards: the nearest first) onto `state`; the state after the first of them. */
  private foldUp(entries: readonly SessionEntry[], state: KitState): KitState {
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i] as SessionEntry;
      state = this.reducer.evolve(state, toEvent(entry));
      this.reductions++;
      if (i === 0 || this.kept === null || this.kept.has(entry.id)) this.memo.set(entry.id, state);
    }
    return state;
  }

  /**
   * Folds an entry just read, whose parent (null for a root) was read before it: one reducer call, as a file read in
   * order costs. The state before it is then let go unless `kept` has that entry (a branch from it later folds it
   * again).
   */
  advance(entry: SessionEntry, parent: string | null): KitState {
    const base =
      parent === null
        ? this.reducer.initialState()
        : parent === this.latestId
          ? (this.latestState as KitState)
          : this.stateAt(parent);
    const state = this.reducer.evolve(base, toEvent(entry));
    this.reductions++;
    const latest = this.latestId;
    if (latest !== null && (this.kept === null || this.kept.has(latest)))
      this.memo.set(latest, this.latestState as KitState);
    this.latestId = entry.id;
    this.latestState = state;
    return state;
  }

  /**
   * The state after each entry of `order`, handed to `visit` with its place and then dropped, but for those in `kept`
   * and those without children, which later calls read. A parent's state is held only until its last child is
   * folded: in a file whose parents come first, this folds the whole tree in file order, reading each entry once and
   * holding little more than the states where branches fork. Any order gives the same states (a parent not yet
   * visited is folded to).
   */
  eachState(order: FileOrder, visit: (at: number, state: KitState) => void): void {
    const { ids, entries, parents } = order;
    const left = order.children.slice();
    const held = new Array<KitState | undefined>(ids.length);
    const fresh = this.size === 0 && order.parentsFirst;
    // Whether each place's state is remembered: a leaf's, or one `kept` names (a set lookup a place is not free).
    const remembered = new Uint8Array(ids.length).fill(this.kept === null ? 1 : 0);
    for (const id of this.kept ?? []) {
      const at = order.indexOf.get(id);
      if (at !== undefined) remembered[at] = 1;
    }
    for (let at = 0; at < ids.length; at++) {
      const id = ids[at] as string;
      const p = parents[at] as number;
      let state = fresh ? undefined : this.memo.get(id);
      if (state === undefined) {
        const base = p < 0 ? this.reducer.initialState() : (held[p] ?? this.stateAt(ids[p] as string));
        state = this.reducer.evolve(base, toEvent(entries[at] as SessionEntry));
        this.reductions++;
        if (left[at] === 0 || remembered[at] === 1) this.memo.set(id, state);
      }
      if ((left[at] as number) > 0) held[at] = state;
      if (p >= 0 && --(left[p] as number) === 0) held[p] = undefined;
      visit(at, state);
    }
  }

  /** The states held. */
  get size(): number {
    return this.memo.size + (this.latestId !== null && !this.memo.has(this.latestId) ? 1 : 0);
  }
}

/** The plain, unmemoised fold of one path, root first: the reference the memoised fold must equal. */
export function foldPath(path: readonly SessionEntry[], reducer: RootReducer): KitState {
  let state = reducer.initialState();
  for (const entry of path) state = reducer.evolve(state, toEvent(entry));
  return state;
}
