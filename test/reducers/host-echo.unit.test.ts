import { describe, expect, it } from "vitest";
import { isStalled } from "../../reducers/recovery.js";
import { SessionTree } from "../../src/tree/session-tree.js";
import { formatView, viewReport } from "../../src/view/view-report.js";
import { given } from "../helpers/given.js";
import { SessionBuilder } from "../synth/session-builder.js";

const PROMISE = "Let me check the gateway logs for the failed delivery.";

describe("host echoes (OpenClaw delivery-mirror) are not replies", () => {
  it("three mirrors of a turn that called tools make no stall; three real promise replies do", () => {
    given((b) => {
      b.user("Why did the message not arrive?");
      const call = b.assistant(PROMISE, [{ name: "read", args: { path: "gateway.log" } }]);
      b.toolResult(b.toolCallId(call), "read", "timeout after 30s");
    })
      .when((b) => {
        for (let i = 0; i < 3; i++) b.hostEcho(PROMISE);
      })
      .then((state) => {
        expect(isStalled(state.recovery)).toBe(false);
        expect(state.recovery.run.promiseEntryIds).toEqual([]);
        expect(state.session.model).not.toEqual({ provider: "openclaw", modelId: "delivery-mirror" });
      });
    given((b) => b.user("Why did the message not arrive?"))
      .when((b) => {
        for (let i = 0; i < 3; i++) b.assistant(PROMISE);
      })
      .then((state) => {
        expect(isStalled(state.recovery)).toBe(true);
      });
  });

  it("a mirror between real promises neither counts nor breaks the run", () => {
    given((b) => b.user("Fix the webhook."))
      .when((b) => {
        b.assistant(PROMISE);
        b.hostEcho("Here is the summary you asked for: the webhook is fixed.");
        b.assistant(PROMISE);
        b.assistant(PROMISE);
      })
      .then((state) => {
        expect(isStalled(state.recovery)).toBe(true);
        expect(state.recovery.run.promiseEntryIds).toHaveLength(3);
      });
  });

  it("view labels a mirror entry as a host echo, not as an assistant reply", () => {
    const b = new SessionBuilder();
    b.user("Send the summary to the channel.");
    b.assistant("The webhook is fixed.");
    b.hostEcho("The webhook is fixed.");
    const text = formatView(viewReport("s.jsonl", new SessionTree(b.entries), null, true));
    expect(text).toMatch(/ {2}2 host echo {6}The webhook is fixed\./);
    expect(text).toMatch(/ {2}1 assistant {6}The webhook is fixed\./);
  });
});
