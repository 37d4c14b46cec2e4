import { produce } from "immer";
import type { KitEvent } from "./contract/events.js";
import { denialOf } from "./contract/tool-details.js";
import { exhaustive } from "./session.js";
import type { DenialRecord } from "./state.js";

export type DenialsSlice = Record<string, DenialRecord>;

export function initialDenials(): DenialsSlice {
  return {};
}

export { denialOf };

/**
 * Denied scopes keyed by canonical directory: a reminder for the model, never an authorisation cache. A scope leaves
 * the set when a host entry records that the policy allows it again.
 */
export const denialsReducer = (state: DenialsSlice, event: KitEvent): DenialsSlice => {
  switch (event.kind) {
    case "toolResult": {
      const denial = denialOf(event.details);
      if (!denial) return state;
      return produce(state, (d) => {
        const known = d[denial.scope];
        if (known) {
          known.count += 1;
          known.lastEntryId = event.entryId;
          known.status = denial.status;
          known.guidanceShown ||= denial.guidanceShown === true;
        } else {
          d[denial.scope] = {
            scope: denial.scope,
            status: denial.status,
            count: 1,
            firstEntryId: event.entryId,
            lastEntryId: event.entryId,
            guidanceShown: denial.guidanceShown === true,
          };
        }
      });
    }
    case "kit":
      if (event.record.type !== "policyAllowed" || !(event.record.data.scope in state)) return state;
      return produce(state, (d) => {
        if (event.record.type === "policyAllowed") delete d[event.record.data.scope];
      });
    case "user":
    case "assistant":
    case "hostMessage":
    case "modelChange":
    case "thinkingChange":
    case "other":
      return state;
    default:
      return exhaustive(event);
  }
};
