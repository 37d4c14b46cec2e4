import { produce } from "immer";
import { type DenialDetails, denialKey, denialOf } from "./contract/tool-details.js";
import type { Slice } from "./slice.js";
import type { DenialRecord } from "./state.js";

export type DenialsSlice = Record<string, DenialRecord>;

export { denialOf };

const OPS = new Set(["read", "list", "search", "write"]);

function withDenial(state: DenialsSlice, denial: DenialDetails, entryId: string): DenialsSlice {
  const key = denialKey(denial);
  const op = typeof denial.op === "string" && OPS.has(denial.op) ? denial.op : undefined;
  const target =
    typeof denial.target === "string" ? denial.target : typeof denial.path === "string" ? denial.path : denial.scope;
  return produce(state, (d) => {
    const known = d[key];
    if (known) {
      known.count += 1;
      known.lastEntryId = entryId;
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
        firstEntryId: entryId,
        lastEntryId: entryId,
        guidanceShown: denial.guidanceShown === true,
      };
    }
  });
}

/**
 * Denials keyed by what was denied (the rule, which names its canonical target): a reminder for the model, never an
 * authorisation cache. A denial leaves the set when a host entry records that the same decision now passes.
 */
export const denialsSlice: Slice<DenialsSlice> = {
  initial: () => ({}),
  on: {
    toolResult(state, event) {
      const denial = denialOf(event.details);
      return denial ? withDenial(state, denial, event.entryId) : state;
    },
    kit(state, event) {
      if (event.record.type === "nestedDenial") {
        const denial = denialOf(event.record.data.details);
        return denial ? withDenial(state, denial, event.entryId) : state;
      }
      if (event.record.type !== "policyAllowed") return state;
      const { scope, rule } = event.record.data;
      const keys = Object.keys(state).filter((key) =>
        typeof rule === "string" ? key === rule : state[key]?.scope === scope,
      );
      if (keys.length === 0) return state;
      return produce(state, (d) => {
        for (const key of keys) delete d[key];
      });
    },
  },
};
