import stableStringify from "fast-json-stable-stringify";
import { describe, expect, it } from "vitest";
import type { KitEvent } from "../../reducers/contract/events.js";
import { BranchFold, foldPath } from "../../src/fold/branch-fold.js";
import { kitReducer } from "../../src/fold/kit-reducer.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { toEvent } from "../../src/fold/to-event.js";
import type { SessionEntry } from "../../src/log/entry-types.js";
import type { FileOrder } from "../../src/tree/file-order.js";
import { SessionTree } from "../../src/tree/session-tree.js";
import { randomSession } from "../synth/random-tree.js";

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const SEEDS = Array.from({ length: 120 }, (_, i) => 1000 + i);

/** The tree's entries in reverse id order, with their parents' places: children often stand before parents. */
function shuffled(tree: SessionTree): FileOrder {
  const ids = [...tree.byId.keys()].sort().reverse();
  const indexOf = new Map(ids.map((id, at) => [id, at]));
  const parents = ids.map((id) => indexOf.get(tree.parentOf(id) ?? "") ?? -1);
  const children = new Array<number>(ids.length).fill(0);
  for (const p of parents) if (p >= 0) children[p] = (children[p] as number) + 1;
  const entries = ids.map((id) => tree.get(id) as SessionEntry);
  const depths = ids.map((id) => tree.depth(id));
  return { ids, entries, parents, children, depths, parentsFirst: parents.every((p, at) => p < at), indexOf };
}

describe("the memoised fold behaves like a plain full fold", () => {
  it.each(SEEDS)("seed %i: every leaf's state equals the plain fold of its path", (seed) => {
    const b = randomSession(seed, 60);
    const entries = deepFreeze(b.entries);
    const tree = new SessionTree(entries);
    const fold = new BranchFold(tree, kitReducer);
    for (const leaf of tree.leaves()) {
      const memo = fold.stateAt(leaf);
      const plain = foldPath(tree.pathTo(leaf), kitReducer);
      expect(stableStringify(memo)).toBe(stableStringify(plain));
      expect(stableStringify(new BranchFold(tree, kitReducer).stateAt(leaf))).toBe(stableStringify(memo));
    }
    expect(fold.reductions).toBe(tree.size - countUnreached(tree));
  });

  it("reduces each entry once for the whole tree, and one appended entry costs one reducer call", () => {
    const b = randomSession(7, 400);
    const tree = new SessionTree(b.entries);
    const fold = new BranchFold(tree, kitReducer);
    for (const leaf of tree.leaves()) fold.stateAt(leaf);
    const before = fold.reductions;
    expect(before).toBeLessThanOrEqual(tree.size);
    b.user("one more");
    const grown = new SessionTree(b.entries);
    const incremental = new BranchFold(grown, kitReducer);
    for (const leaf of tree.leaves()) incremental.stateAt(leaf);
    const settled = incremental.reductions;
    incremental.stateAt(b.leafId);
    expect(incremental.reductions - settled).toBe(1);
  });

  it.each(SEEDS.slice(0, 40))(
    "seed %i: the offline fold (states kept at forks only) equals the plain fold, each entry once",
    (seed) => {
      const b = randomSession(seed, 120);
      const tree = new SessionTree(deepFreeze(b.entries));
      const fold = foldTree(tree);
      const leaves = tree.leaves();
      // Leaves in reverse too: a later branch must start from a fork kept by an earlier one, whatever the order.
      for (const leaf of seed % 2 === 0 ? leaves : [...leaves].reverse()) {
        expect(stableStringify(fold.stateAt(leaf))).toBe(stableStringify(foldPath(tree.pathTo(leaf), kitReducer)));
      }
      expect(fold.reductions).toBe(tree.size - countUnreached(tree));
      const forks = tree.branchPoints().length;
      expect(fold.size).toBeLessThanOrEqual(forks + leaves.length);
      const everyState = new BranchFold(tree, kitReducer);
      for (const leaf of leaves) everyState.stateAt(leaf);
      expect(everyState.size).toBe(tree.size - countUnreached(tree));
    },
  );

  it.each(SEEDS.slice(0, 40))("seed %i: every state visited once in file order equals the plain fold", (seed) => {
    const b = randomSession(seed, 120);
    const tree = new SessionTree(deepFreeze(b.entries));
    const fold = foldTree(tree);
    const ids = [...tree.byId.keys()];
    // File order first; a shuffled order (children before parents) must give the same states.
    const inFileOrder = seed % 2 === 0;
    const order = inFileOrder ? tree.order : shuffled(tree);
    expect(order.ids).toEqual(inFileOrder ? ids : [...ids].sort().reverse());
    if (inFileOrder) expect(order.parentsFirst).toBe(true);
    const seen = new Map<string, string>();
    fold.eachState(order, (at, state) => {
      seen.set(order.ids[at] as string, stableStringify(state));
    });
    expect(seen.size).toBe(ids.length);
    for (const id of ids) expect(seen.get(id)).toBe(stableStringify(foldPath(tree.pathTo(id), kitReducer)));
    if (inFileOrder) {
      expect(fold.reductions).toBe(tree.size - countUnreached(tree));
      expect(fold.size).toBeLessThanOrEqual(tree.branchPoints().length + tree.leaves().length);
    }
    for (const leaf of tree.leaves()) {
      const before = fold.reductions;
      fold.stateAt(leaf);
      expect(fold.reductions).toBe(before);
    }
  });

  it.each(SEEDS.slice(0, 10))("seed %i: a walk in file order after a branch was folded reuses its states", (seed) => {
    const tree = new SessionTree(deepFreeze(randomSession(seed, 120).entries));
    const fold = foldTree(tree);
    const leaf = tree.leaves()[0] as string;
    fold.stateAt(leaf);
    const folded = fold.reductions;
    const kept = fold.size;
    expect(kept).toBeGreaterThan(0);
    const seen = new Map<string, string>();
    fold.eachState(tree.order, (at, state) => {
      seen.set(tree.order.ids[at] as string, stableStringify(state));
    });
    for (const id of tree.byId.keys()) {
      expect(seen.get(id)).toBe(stableStringify(foldPath(tree.pathTo(id), kitReducer)));
    }
    // The states the first fold kept (the leaf's, the forks on its path) are read, not folded again.
    expect(fold.reductions).toBe(tree.size - countUnreached(tree) + folded - kept);
  });

  it("reducers never mutate their input and return the same state for a no-op entry", () => {
    const state = deepFreeze(kitReducer.initialState());
    const noop: KitEvent = deepFreeze({ kind: "other", entryId: "x" });
    expect(kitReducer.evolve(state, noop)).toBe(state);
    const b = randomSession(99, 80);
    let s = state;
    for (const entry of deepFreeze(b.entries)) s = deepFreeze(kitReducer.evolve(s, toEvent(entry)));
    expect(s).toBeDefined();
  });
});

function countUnreached(tree: SessionTree): number {
  const reached = new Set<string>();
  for (const leaf of tree.leaves()) for (const e of tree.pathTo(leaf)) reached.add(e.id);
  return tree.size - reached.size;
}
