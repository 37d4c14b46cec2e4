import { produce } from "immer";
import type { KitEvent } from "./contract/events.js";
import { denialKey, denialOf } from "./contract/tool-details.js";
import { exhaustive } from "./session.js";
import type { DenialRecord } from "./state.js";

export type DenialsSlice = Record<string, DenialRecord>;

export function initialDenials(): DenialsSlice {
  return {};
}

export { denialOf };

const OPS = new Set(["read", "list", "search", "write"]);

/**
 * Denials keyed by what was denied (the rule, which names its canonical target): a reminder for the model, never an
 * authorisation cache. A denial leaves the set when a host entry records that the same decision now passes.
 */
export const denialsReducer = (state: DenialsSlice, event: KitEvent): DenialsSlice => {
  switch (event.kind) {
    case "toolResult": {
      const denial = denialOf(event.details);
      if (!denial) return state;
      const key = denialKey(denial);
      const op = typeof denial.op === "string" && OPS.has(denial.op) ? denial.op : undefined;
      const target =
        typeof denial.target === "string"
          ? denial.target
          : typeof denial.path === "string"
            ? denial.path
            : denial.scope;
      return produce(state, (d) => {
        const known = d[key];
        if (known) {
          known.count += 1;
          known.lastEntryId = event.entryId;
          known.status = denial.status;
          known.target = target;
          if (op) known.op = op;
          else delete known.op;
          known.guidanceShown ||= denial.guidanceShown === true;
        } else {
          d[key] = {
            scope: denial.scope,
            rule: denial.rule,
            ...(op ? { op } : {}),
            target,
            status: denial.status,
            count: 1,
            firstEntryId: event.entryId,
            lastEntryId: event.entryId,
            guidanceShown: denial.guidanceShown === true,
          };
        }
      });
    }
    case "kit": {
      if (event.record.type !== "policyAllowed") return state;
      const { scope, rule } = event.record.data;
      const keys = Object.keys(state).filter((key) =>
        typeof rule === "string" ? key === rule : state[key]?.scope === scope,
      );
      if (keys.length === 0) return state;
      return produce(state, (d) => {
        for (const key of keys) delete d[key];
      });
    }
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
