import { expect } from "vitest";
import type { KitState } from "../../reducers/state.js";
import { BranchFold } from "../../src/fold/branch-fold.js";
import { kitReducer } from "../../src/fold/kit-reducer.js";
import { SessionTree } from "../../src/tree/session-tree.js";
import { SessionBuilder } from "../synth/session-builder.js";

/** given(session so far).when(more entries).then(expectations on the state at the new leaf) */
export function given(build: (b: SessionBuilder) => void) {
  const builder = new SessionBuilder();
  build(builder);
  const before = stateAt(builder, builder.leafId);
  return {
    builder,
    before,
    when(more: (b: SessionBuilder) => void) {
      more(builder);
      const after = stateAt(builder, builder.leafId);
      return {
        after,
        // biome-ignore lint/suspicious/noThenProperty: the given/when/then test vocabulary; never awaited
        then(check: (state: KitState, previous: KitState) => void) {
          check(after, before);
          return after;
        },
      };
    },
  };
}

export function stateAt(builder: SessionBuilder, leafId: string | null): KitState {
  const tree = new SessionTree(builder.entries);
  return new BranchFold(tree, kitReducer).stateAt(leafId);
}

export function expectSame<T>(actual: T, expected: T): void {
  expect(actual).toBe(expected);
}
