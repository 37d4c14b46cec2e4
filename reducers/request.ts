import type { KitEvent } from "./contract/events.js";
import { isHostEcho } from "./host-echo.js";
import { exhaustive } from "./session.js";
import type { RequestSlice } from "./state.js";

export function initialRequest(): RequestSlice {
  return { currentRequestId: null, assistantReplies: 0, toolCalls: 0 };
}

/** The current user request; its counters reset only at a real user message (host messages are not requests). */
export const requestReducer = (state: RequestSlice, event: KitEvent): RequestSlice => {
  switch (event.kind) {
    case "user":
      return { currentRequestId: event.entryId, assistantReplies: 0, toolCalls: 0 };
    case "assistant":
      if (isHostEcho(event.provider, event.model)) return state;
      return {
        currentRequestId: state.currentRequestId,
        assistantReplies: state.assistantReplies + 1,
        toolCalls: state.toolCalls + event.toolCallIds.length,
      };
    case "toolResult":
    case "kit":
    case "hostMessage":
    case "modelChange":
    case "thinkingChange":
    case "nestedCall":
    case "other":
      return state;
    default:
      return exhaustive(event);
  }
};
