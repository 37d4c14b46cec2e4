import { describe, expect, it } from "vitest";
import type { ToolResultRef } from "../../reducers/state.js";
import { callKey, failedResult, madeProgress, resultKey, stripVolatile } from "../../src/detect/tool-loop-keys.js";

const result = (text: string, over: Partial<ToolResultRef> = {}): ToolResultRef => ({
  tool: "bash",
  args: { command: "npm test" },
  isError: false,
  content: [{ type: "text", text }],
  details: undefined,
  ...over,
});

describe("canonical calls and results", () => {
  it("a call ignores key order, not values (whitespace inside strings counts)", () => {
    expect(callKey("grep", { pattern: "x", path: "src" })).toBe(callKey("grep", { path: "src", pattern: "x" }));
    expect(callKey("grep", { pattern: "x", path: "src" })).not.toBe(callKey("grep", { path: " src", pattern: "x" }));
    expect(callKey("grep", { pattern: "x" })).not.toBe(callKey("grep", { pattern: "y" }));
    expect(callKey("read", { path: "a" })).not.toBe(callKey("ls", { path: "a" }));
  });

  it("strips timings, clock times, JSON time and pid fields, temp paths; keeps counts and positions", () => {
    expect(stripVolatile('{"state":"running","durationMs":1234,"startedAt":"2026-01-01","pid":991}')).toBe(
      '{"state":"running","durationMs":<v>,"startedAt":<v>,"pid":<v>}',
    );
    expect(stripVolatile("Start at 06:29:10, Duration 47.47s, wrote /tmp/vitest-8xk2/out.json")).toBe(
      "Start at <time>, Duration <duration>, wrote /tmp/<tmp>",
    );
    expect(stripVolatile("compiled 5 of 6 modules")).toBe("compiled 5 of 6 modules");
    expect(stripVolatile("src/a.ts:12:34 - error TS2304")).toBe("src/a.ts:12:34 - error TS2304");
  });

  it("the error flag is part of the result", () => {
    expect(resultKey(result("same"))).not.toBe(resultKey(result("same", { isError: true })));
  });

  it("failing: an error result, a check whose details or output report a failure; a pass or other text is not", () => {
    expect(failedResult(result("boom", { isError: true }))).toBe(true);
    expect(failedResult(result("done", { tool: "app_test", details: { status: "failed" } }))).toBe(true);
    expect(failedResult(result("Tests: 2 failed, 5 passed", { tool: "app_test" }))).toBe(true);
    expect(failedResult(result("Tests: 0 failed, 7 passed", { tool: "app_test" }))).toBe(false);
    expect(failedResult(result("Tests: 2 failed, 5 passed", { tool: "bash" }))).toBe(false);
    expect(failedResult(result("FAIL in the file name", { tool: "read", args: { path: "notes.md" } }))).toBe(false);
  });

  it("progress: a successful write or edit, not a failed one or a read", () => {
    expect(madeProgress(result("ok", { tool: "edit", details: { diff: "+x" } }))).toBe(true);
    expect(madeProgress(result("ok", { tool: "write", details: { path: "/p/a", mutated: true } }))).toBe(true);
    expect(madeProgress(result("no match", { tool: "edit", isError: true }))).toBe(false);
    expect(madeProgress(result("ok", { tool: "read" }))).toBe(false);
  });
});
