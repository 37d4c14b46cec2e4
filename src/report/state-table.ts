import stableStringify from "fast-json-stable-stringify";
import type { KitState } from "../../reducers/state.js";
import { type StateSummary, summarizeSlice } from "../fold/state-summary.js";

export const SLICES = ["request", "session", "denials", "fileIssues", "verification", "recovery"] as const;
export type SliceName = (typeof SLICES)[number];

/**
 * The state summary at every entry, stored compactly: each slice value once, each distinct state once (as six
 * slice indices), and a state index only for the entries where the state changed. An entry without a change has its
 * parent's state; a root without one has the initial state (index 0).
 */
export interface StateTable {
  slices: { [K in SliceName]: StateSummary[K][] };
  /** Six slice indices per state, flattened, in `SLICES` order. */
  tuples: number[];
  /** Pairs `[entry index, state index]`, flattened. */
  changes: number[];
}

export class StateTableBuilder {
  readonly table: StateTable = {
    slices: { request: [], session: [], denials: [], fileIssues: [], verification: [], recovery: [] },
    tuples: [],
    changes: [],
  };
  private readonly sliceKeys = SLICES.map(() => new Map<string, number>());
  private readonly tupleKeys = new Map<string, number>();
  private readonly byState = new WeakMap<KitState, number>();
  /** Slice index by the state object it came from: reducers keep an unchanged slice's reference. */
  private readonly bySource = SLICES.map(() => new WeakMap<object, number>());
  private readonly byRequest = new Map<string | null, number>();

  constructor(initial: KitState) {
    this.intern(initial);
  }

  /** The state interned last: a state with all six of its slices (and its request) has its index. */
  private last: KitState | null = null;
  private lastIndex = 0;

  /** The state interned just before, whatever its way: consecutive entries often leave the state as it was. */
  private previous: KitState | null = null;
  private previousIndex = 0;

  /** The index of a state's summary, adding it when new. */
  intern(state: KitState): number {
    if (state !== this.previous) {
      this.previousIndex = this.find(state);
      this.previous = state;
    }
    return this.previousIndex;
  }

  private find(state: KitState): number {
    const known = this.byState.get(state);
    if (known !== undefined) return known;
    const last = this.last;
    if (
      last !== null &&
      state.request.currentRequestId === last.request.currentRequestId &&
      state.session === last.session &&
      state.denials === last.denials &&
      state.fileIssues === last.fileIssues &&
      state.verification === last.verification &&
      state.recovery === last.recovery
    ) {
      // Another slice moved (the tool-loop window, the inputs): the summary is the same.
      return this.lastIndex;
    }
    const index = this.add(state);
    this.last = state;
    this.lastIndex = index;
    return index;
  }

  /** The slice objects (the request id first) of the state added last, and their indices. */
  private readonly addedSources: unknown[] = SLICES.map(() => undefined);
  private readonly addedIndices: number[] = SLICES.map(() => -1);

  private add(state: KitState): number {
    const tuple: number[] = [];
    for (let i = 0; i < SLICES.length; i++) {
      const name = SLICES[i] as SliceName;
      // Reducers keep an unchanged slice's object, so most slices are known by it; the request by its id.
      const source = i === 0 ? null : (state[name as Exclude<SliceName, "request">] as object);
      const id = state.request.currentRequestId;
      const same = (i === 0 ? id : source) === this.addedSources[i] && (this.addedIndices[i] as number) >= 0;
      this.addedSources[i] = i === 0 ? id : source;
      const hit = same
        ? this.addedIndices[i]
        : source === null
          ? this.byRequest.get(id)
          : this.bySource[i]?.get(source);
      if (hit !== undefined) {
        tuple.push(hit);
        this.addedIndices[i] = hit;
        continue;
      }
      const value = summarizeSlice[name](state);
      const key = stableStringify(value);
      const keys = this.sliceKeys[i] as Map<string, number>;
      let index = keys.get(key);
      if (index === undefined) {
        const list = this.table.slices[name] as unknown[];
        index = list.length;
        list.push(value);
        keys.set(key, index);
      }
      if (source === null) this.byRequest.set(state.request.currentRequestId, index);
      else if (source !== undefined) this.bySource[i]?.set(source, index);
      tuple.push(index);
      this.addedIndices[i] = index;
    }
    const key = tuple.join(",");
    let index = this.tupleKeys.get(key);
    if (index === undefined) {
      index = this.tupleKeys.size;
      this.tupleKeys.set(key, index);
      this.table.tuples.push(...tuple);
    }
    this.byState.set(state, index);
    return index;
  }

  /** Records an entry's state index when it differs from its parent's. */
  record(entryIndex: number, stateIndex: number, parentStateIndex: number): void {
    if (stateIndex !== parentStateIndex) this.table.changes.push(entryIndex, stateIndex);
  }
}
