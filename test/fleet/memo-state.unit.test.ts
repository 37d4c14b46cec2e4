import { describe, expect, it } from "vitest";
import type { KitState } from "../../reducers/state.js";
import { kitReducer } from "../../src/fold/kit-reducer.js";
import { toEvent } from "../../src/fold/to-event.js";
import type { SessionEntry } from "../../src/log/entry-types.js";

/** A user turn, then `calls` tool calls with the same arguments and result; the second to another tool. */
function entries(calls: number): SessionEntry[] {
  const out: Record<string, unknown>[] = [{ type: "message", id: "u", message: { role: "user", content: "go" } }];
  for (let i = 0; i < calls; i++) {
    const toolCall = { type: "toolCall", id: `c${i}`, name: i === 1 ? "grep" : "read", arguments: { path: "a.ts" } };
    out.push({
      type: "message",
      id: `a${i}`,
      message: { role: "assistant", content: [toolCall], provider: "p", model: "m", stopReason: "toolUse" },
    });
    out.push({
      type: "message",
      id: `r${i}`,
      message: { role: "toolResult", toolCallId: `c${i}`, toolName: "read", content: [{ type: "text", text: "x" }] },
    });
  }
  return out.map((e, i, all) => ({ ...e, parentId: i === 0 ? null : (all[i - 1]?.id as string) })) as SessionEntry[];
}

const fold = (from: KitState, list: readonly SessionEntry[]) =>
  list.reduce((state, entry) => kitReducer.evolve(state, toEvent(entry)), from);

describe("the kit's state kept in a memo", () => {
  it("folds an appended tail as the state itself does, with a loop that began before the memo", () => {
    const all = entries(7);
    const whole = fold(kitReducer.initialState(), all);
    expect(whole.toolLoop.episodes.length + (whole.toolLoop.episode ? 1 : 0)).toBeGreaterThan(0);
    const prefix = fold(kitReducer.initialState(), all.slice(0, 7));
    const memo = JSON.parse(JSON.stringify(prefix)) as KitState;
    const continued = fold(memo, all.slice(7));
    expect(JSON.parse(JSON.stringify(continued))).toEqual(JSON.parse(JSON.stringify(whole)));
  });
});
