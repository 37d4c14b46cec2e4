import { isHostEcho } from "./host-echo.js";
import type { Slice } from "./slice.js";
import type { RequestSlice } from "./state.js";

/** The current user request; its counters reset only at a real user message (host messages are not requests). */
export const requestSlice: Slice<RequestSlice> = {
  initial: () => ({ currentRequestId: null, assistantReplies: 0, toolCalls: 0 }),
  on: {
    user: (_state, event) => ({ currentRequestId: event.entryId, assistantReplies: 0, toolCalls: 0 }),
    assistant(state, event) {
      if (isHostEcho(event.provider, event.model)) return state;
      return {
        currentRequestId: state.currentRequestId,
        assistantReplies: state.assistantReplies + 1,
        toolCalls: state.toolCalls + event.toolCalls.length,
      };
    },
  },
};
