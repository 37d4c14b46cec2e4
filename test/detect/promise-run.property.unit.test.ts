import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  advanceRun,
  classifyReply,
  EMPTY_RUN,
  type RunEvent,
  STALL_RUN_LENGTH,
  STALL_WINDOW,
  UNCOUNTED_STOP_REASONS,
} from "../../src/detect/index.js";

const TEXTS = [
  "Let me check the compiler errors.",
  "我看看编译错误。",
  "讓我再檢查一次編譯錯誤",
  "I'll run the tests again.",
  "Running the tests now.",
  "The build has 3 errors.",
  "Should I fix the import?",
  "型エラーを確認します。",
  "If it still fails, I'll look into why.",
];

const reply = (stopReasons: string[], toolCalls: number[]) =>
  fc.record({
    type: fc.constant("assistant" as const),
    entryId: fc.uuid(),
    text: fc.constantFrom(...TEXTS),
    toolCalls: fc.constantFrom(...toolCalls),
    stopReason: fc.constantFrom(...stopReasons),
  });
const event: fc.Arbitrary<RunEvent> = fc.oneof(
  { arbitrary: reply(["stop"], [0]), weight: 8 },
  { arbitrary: reply(["toolUse"], [1]), weight: 1 },
  { arbitrary: reply(["error", "aborted", "length"], [0, 1]), weight: 1 },
  { arbitrary: fc.constantFrom<RunEvent>({ type: "user" }, { type: "host" }), weight: 3 },
  { arbitrary: fc.constantFrom<RunEvent>({ type: "toolResult" }, { type: "anchor" }), weight: 1 },
);

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe("the promise run on generated paths", () => {
  it("a stall is three or more promises, all after the last reset, the first three within the window", () => {
    let stalls = 0;
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        const run = events.map(deepFreeze).reduce(advanceRun, EMPTY_RUN);
        if (!run.stalled) return;
        stalls++;
        let lastReset = -1;
        events.forEach((e, i) => {
          const counted = e.type === "assistant" && !UNCOUNTED_STOP_REASONS.has(e.stopReason);
          if (
            e.type === "toolResult" ||
            e.type === "anchor" ||
            (counted && e.type === "assistant" && e.toolCalls > 0)
          ) {
            lastReset = i;
          }
        });
        const counted = events
          .slice(lastReset + 1)
          .filter(
            (e): e is Extract<RunEvent, { type: "assistant" }> =>
              e.type === "assistant" && !UNCOUNTED_STOP_REASONS.has(e.stopReason),
          );
        const ids = counted.map((e) => e.entryId);
        expect(run.promiseEntryIds.length).toBeGreaterThanOrEqual(STALL_RUN_LENGTH);
        for (const id of run.promiseEntryIds) expect(ids).toContain(id);
        const positions = run.promiseEntryIds.slice(0, STALL_RUN_LENGTH).map((id) => ids.indexOf(id));
        expect((positions.at(-1) ?? 0) - (positions[0] ?? 0)).toBeLessThan(STALL_WINDOW);
        for (const text of run.texts) expect(["promise", "unknown-language"]).toContain(classifyReply(text).kind);
      }),
      { numRuns: 400, seed: 14 },
    );
    expect(stalls).toBeGreaterThan(10);
  });
});
