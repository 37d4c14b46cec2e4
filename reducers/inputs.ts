import type { Slice } from "./slice.js";
import type { InputsSlice } from "./state.js";

/** Request inputs recorded on the branch (not in the transcript): the root guidance in force. */
export const inputsSlice: Slice<InputsSlice> = {
  initial: () => ({ guidance: null }),
  on: {
    kit(state, event) {
      if (event.record.type !== "rootGuidance" || event.record.data.text === state.guidance) return state;
      return Object.freeze({ ...state, guidance: event.record.data.text });
    },
  },
};
