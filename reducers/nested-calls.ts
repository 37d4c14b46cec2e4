import { produce } from "immer";
import type { Slice } from "./slice.js";
import type { NestedCallSeen, NestedCallsSlice } from "./state.js";

/** Nested calls kept per branch for the audit, newest last. */
export const RECENT_NESTED_CALLS = 16;

/** The calls tools made to other tools on the branch: counts, the latest few, and the results whose record is cut. */
export const nestedCallsSlice: Slice<NestedCallsSlice> = {
  initial: () => ({ calls: 0, failed: 0, unfinished: 0, incompleteRecordIds: [], recent: [] }),
  on: {
    toolResult(state, event) {
      if (!event.nested || event.nested.complete) return state;
      return produce(state, (d) => {
        d.incompleteRecordIds.push(event.entryId);
      });
    },
    nestedCall(state, event) {
      const { call } = event;
      const seen: NestedCallSeen = {
        entryId: event.entryId,
        parentCallId: event.parentCallId,
        id: call.id,
        tool: call.name,
        status: call.status,
        ...(call.args !== undefined ? { args: call.args } : {}),
        ...(call.error !== undefined ? { error: call.error } : {}),
      };
      return produce(state, (d) => {
        d.calls += 1;
        if (call.status === "error") d.failed += 1;
        if (call.status === "unfinished") d.unfinished += 1;
        d.recent.push(seen);
        if (d.recent.length > RECENT_NESTED_CALLS) d.recent.shift();
      });
    },
  },
};
