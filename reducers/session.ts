import type { KitEvent } from "./contract/events.js";
import { isHostEcho } from "./host-echo.js";
import type { SessionSlice } from "./state.js";

export function initialSession(): SessionSlice {
  return { model: null, thinkingLevel: "off" };
}

/** Model and thinking level as the host computes them: the last change, or the last assistant reply's model. */
export const sessionReducer = (state: SessionSlice, event: KitEvent): SessionSlice => {
  switch (event.kind) {
    case "modelChange":
      return { model: { provider: event.provider, modelId: event.modelId }, thinkingLevel: state.thinkingLevel };
    case "assistant":
      if (isHostEcho(event.provider, event.model)) return state;
      if (state.model?.provider === event.provider && state.model.modelId === event.model) return state;
      return { model: { provider: event.provider, modelId: event.model }, thinkingLevel: state.thinkingLevel };
    case "thinkingChange":
      return { model: state.model, thinkingLevel: event.thinkingLevel };
    case "user":
    case "toolResult":
    case "kit":
    case "hostMessage":
    case "nestedCall":
    case "other":
      return state;
    default:
      return exhaustive(event);
  }
};

export function exhaustive(event: never): never {
  throw new Error(`unhandled event ${JSON.stringify(event)}`);
}
