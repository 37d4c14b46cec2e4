import type { RootReducer } from "../../reducers/root.js";
import type { KitState } from "../../reducers/state.js";
import type { SessionEntry } from "../log/entry-types.js";
import { toEvent } from "./to-event.js";

/** What the views read states from: a `BranchFold`, or a `ReadingFold` made while the file was read. */
export interface StateSource {
  /** The state after `id`; the initial state for null or an unknown id. */
  stateAt(id: string | null): KitState;
}

/** Where the fold finds entries: a `SessionTree`, or the live host's session manager. */
export interface EntrySource {
  get(id: string): SessionEntry | undefined;
  /** Null for a root, an orphan, or an entry whose parent link was cut. */
  parentOf(id: string): string | null;
}

/**
 * `state(entry) = evolve(state(parent), entry)`, memoised by entry id across the whole tree: each entry is reduced
 * once however many branches share it, and a newly appended entry costs one reducer call. Every state asked for is
 * remembered; of the states passed on the way, those in `kept` (all when it is null). A set, not a predicate: a
 * closure made per fold would be a new call target for the optimised fold each time.
 */
export class BranchFold implements StateSource {
  private readonly memo = new Map<string, KitState>();
  /** Reducer calls made so far; tests use it to prove the incremental cost. */
  reductions = 0;

  constructor(
    private readonly source: EntrySource,
    private readonly reducer: RootReducer,
    private readonly kept: { has(id: string): boolean } | null = null,
  ) {}

  initialState(): KitState {
    return this.reducer.initialState();
  }

  /** The state after `id`; the initial state for null or an unknown id. */
  stateAt(id: string | null): KitState {
    if (id === null) return this.reducer.initialState();
    const known = this.memo.get(id);
    if (known) return known;
    const pending: SessionEntry[] = [];
    let cursor: string | null = id;
    let state = this.reducer.initialState();
    while (cursor !== null) {
      const memo = this.memo.get(cursor);
      if (memo) {
        state = memo;
        break;
      }
      const entry = this.source.get(cursor);
      if (!entry) break;
      pending.push(entry);
      cursor = this.source.parentOf(cursor);
    }
    for (let i = pending.length - 1; i >= 0; i--) {
      const entry = pending[i] as SessionEntry;
      state = this.reducer.evolve(state, toEvent(entry));
      this.reductions++;
      if (i === 0 || this.kept === null || this.kept.has(entry.id)) this.memo.set(entry.id, state);
    }
    return this.memo.get(id) ?? state;
  }

  /**
   * The state after each of `ids`, handed to `visit` and then dropped, but for those in `kept` and those without
   * children (`children` counts them), which later calls read. A state waits only until its last child is visited:
   * in an order where parents come first (a file written in order), this walks the whole tree holding little more
   * than the states where branches fork. Any order gives the same states (a parent not yet visited is folded to).
   */
  eachState(
    ids: Iterable<string>,
    children: (id: string) => number,
    visit: (id: string, state: KitState) => void,
  ): void {
    const open = new Map<string, { state: KitState; left: number }>();
    for (const id of ids) {
      const parent = this.source.parentOf(id);
      const slot = parent === null ? undefined : open.get(parent);
      if (slot !== undefined && --slot.left === 0) open.delete(parent as string);
      const kids = children(id);
      let state = this.memo.get(id);
      if (state === undefined) {
        const entry = this.source.get(id);
        if (!entry) state = this.reducer.initialState();
        else {
          const base =
            parent === null ? this.reducer.initialState() : slot !== undefined ? slot.state : this.stateAt(parent);
          state = this.reducer.evolve(base, toEvent(entry));
          this.reductions++;
          if (kids === 0 || this.kept === null || this.kept.has(id)) this.memo.set(id, state);
        }
      }
      if (kids > 0) open.set(id, { state, left: kids });
      visit(id, state);
    }
  }

  get size(): number {
    return this.memo.size;
  }
}

/** The plain, unmemoised fold of one path, root first: the reference the memoised fold must equal. */
export function foldPath(path: readonly SessionEntry[], reducer: RootReducer): KitState {
  let state = reducer.initialState();
  for (const entry of path) state = reducer.evolve(state, toEvent(entry));
  return state;
}
