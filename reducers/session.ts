import { isHostEcho } from "./host-echo.js";
import type { Slice } from "./slice.js";
import type { SessionSlice } from "./state.js";

/** Model and thinking level as the host computes them: the last change, or the last assistant reply's model. */
export const sessionSlice: Slice<SessionSlice> = {
  initial: () => ({ model: null, thinkingLevel: "off" }),
  on: {
    modelChange: (state, event) => ({
      model: { provider: event.provider, modelId: event.modelId },
      thinkingLevel: state.thinkingLevel,
    }),
    assistant(state, event) {
      if (isHostEcho(event.provider, event.model)) return state;
      if (state.model?.provider === event.provider && state.model.modelId === event.model) return state;
      return { model: { provider: event.provider, modelId: event.model }, thinkingLevel: state.thinkingLevel };
    },
    thinkingChange: (state, event) => ({ model: state.model, thinkingLevel: event.thinkingLevel }),
  },
};
