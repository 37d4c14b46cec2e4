import { describe, expect, it } from "vitest";
import { KIT } from "../../reducers/contract/kit-entries.js";
import { ACCESS_DENIED } from "../../reducers/contract/tool-details.js";
import type { SessionEntry } from "../../src/log/entry-types.js";
import { demoTranscript } from "../../src/pi/demo/demo-transcript.js";

const T = 1_790_000_000_000;
let n = 0;
const entry = (fields: Record<string, unknown>) =>
  ({ id: `e${n++}`, parentId: null, timestamp: "2026-10-24T00:00:00.000Z", ...fields }) as unknown as SessionEntry;
const message = (message: Record<string, unknown>) => entry({ type: "message", message: { timestamp: T, ...message } });
const result = (text: string, isError: boolean, details?: unknown) =>
  message({
    role: "toolResult",
    toolCallId: "c1",
    toolName: "read",
    content: [{ type: "text", text }],
    isError,
    details,
  });

describe("the demo's transcript", () => {
  it("labels prompts, replies, tool calls, results, denials, errors and the kit's visible messages, in order", () => {
    const lines = demoTranscript([
      entry({ type: "model_change", provider: "p", modelId: "m" }),
      message({ role: "user", content: "Read it." }),
      message({
        role: "assistant",
        provider: "p",
        model: "m",
        stopReason: "toolUse",
        content: [
          { type: "thinking", thinking: "hidden" },
          { type: "text", text: "Reading." },
          { type: "toolCall", id: "c1", name: "read", arguments: { path: "a.md" } },
        ],
      }),
      result("first line\nsecond line", false),
      result("Access denied by host policy", true, { code: ACCESS_DENIED }),
      result("ENOENT", true, { code: "FILE_NOT_FOUND" }),
      entry({ type: "custom", customType: KIT.requestDigest, data: {} }),
      entry({ type: "custom_message", customType: KIT.recoveryMarker, content: "CONTEXT_RECOVERED: x", display: true }),
      entry({ type: "custom_message", customType: "other-extension/note", content: "not the kit's", display: true }),
    ]);
    expect(lines).toEqual([
      "  you     Read it.",
      "  model   Reading.",
      '  model   calls read {"path":"a.md"}',
      "  result  first line",
      "  denied  Access denied by host policy",
      "  error   ENOENT",
      "  kit     CONTEXT_RECOVERED: x",
    ]);
  });

  it("cuts a long line to the terminal's width with an ellipsis", () => {
    const [line] = demoTranscript([message({ role: "user", content: "x".repeat(300) })]);
    expect(line).toHaveLength(110);
    expect(line?.endsWith("x…")).toBe(true);
  });
});
