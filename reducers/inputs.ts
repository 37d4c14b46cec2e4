import type { KitEvent } from "./contract/events.js";
import { exhaustive } from "./session.js";
import type { InputsSlice } from "./state.js";

export function initialInputs(): InputsSlice {
  return { guidance: null };
}

/** Request inputs recorded on the branch (not in the transcript): the root guidance in force. */
export const inputsReducer = (state: InputsSlice, event: KitEvent): InputsSlice => {
  switch (event.kind) {
    case "kit":
      if (event.record.type !== "rootGuidance" || event.record.data.text === state.guidance) return state;
      return Object.freeze({ ...state, guidance: event.record.data.text });
    case "user":
    case "assistant":
    case "toolResult":
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
