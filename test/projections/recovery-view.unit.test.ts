import stringify from "fast-json-stable-stringify";
import { describe, expect, it } from "vitest";
import { recoveryView } from "../../projections/recovery-view.js";
import { toolPairingViolations } from "../../projections/tool-pairing.js";
import { RECOVERED_PREFIX } from "../../reducers/contract/kit-entries.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { recoveryMarker } from "../../src/kit/host-messages.js";
import type { AgentMessage, SessionEntry, UserMessage } from "../../src/log/entry-types.js";
import { SessionBuilder } from "../../src/synth/session-builder.js";
import { SessionTree } from "../../src/tree/session-tree.js";
import { type LeafView, viewOfLeaf } from "../../src/view/leaf-view.js";

const POLICY = "context-kit/policy/v1";

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function mark(b: SessionBuilder, reason = "test"): string {
  const m = recoveryMarker({ requestId: null, promiseEntryIds: [], reason });
  return b.customMessage(m.customType, m.content, m.details);
}

function bash(b: SessionBuilder, command: string): string {
  return b.message({
    role: "bashExecution",
    command,
    output: "ok",
    exitCode: 0,
    cancelled: false,
    truncated: false,
    timestamp: b.nextTimestamp().ms,
  });
}

function messageOf(b: SessionBuilder, id: string): AgentMessage {
  const entry = b.entries.find((e) => e.id === id);
  if (entry?.type !== "message") throw new Error(`${id} is not a message entry`);
  return entry.message;
}

/** given(session).whenViewed(leaf?) → the view the model would be sent for that leaf. */
function given(build: (b: SessionBuilder) => void) {
  const b = new SessionBuilder();
  build(b);
  return {
    b,
    whenViewed(leaf: string | null = b.leafId, entries: readonly SessionEntry[] = b.entries): LeafView {
      const tree = new SessionTree(entries);
      return viewOfLeaf(tree, foldTree(tree), leaf);
    },
  };
}

/**
 * The seed's shape: old constraints, then a compaction that drops the oldest user message from the host's context,
 * kit policy context, a promise loop and the marker, then real tool work after it.
 */
function compactedThenRecovered() {
  const ids: Record<string, string> = {};
  const g = given((b) => {
    ids.u1 = b.user("Constraint: never edit files under generated/.");
    b.toolRound("read", { path: "models/school-service.xml" }, "<model/>");
    bash(b, "ls models");
    b.assistant("The model has six objects.");
    ids.u2 = b.user("Add guardian and classroom.");
    b.toolRound("edit", { path: "models/school-service.xml", edits: [] }, "Edited");
    bash(b, "git diff --stat");
    b.assistant("Added guardian and classroom.");
    b.compaction("The user asked for six objects; they were added.", ids.u2 as string);
    ids.policy = b.customMessage(POLICY, "Policy: generated/ is excluded by generated/.context-exclude.", {});
    ids.note = b.customMessage("other-ext/note", "a note from another extension", {});
    b.branchSummary(ids.u1 as string, "An abandoned branch tried renaming the model.");
    ids.u3 = b.user("Describe the business scenarios.");
    b.assistant("Let me check the compiler errors first.");
    ids.u4 = b.user("Please continue.");
    b.assistant("I'll look at the compiler errors again.");
    ids.u5 = b.user("The scenarios, please.");
    b.assistant("Let me check the old compiler errors first.");
    ids.marker = mark(b);
    ids.call = b.toolRound("read", { path: "docs/application-guide.md" }, "# Guide").call;
    b.assistant("Scenarios: enrollment, timetabling, grading.");
    ids.u6 = b.user("Which one touches enrollment status?");
    b.assistant("Enrollment and withdrawal.");
  });
  return { ...g, ids };
}

describe("recovery view", () => {
  it("given a compaction that dropped an old constraint and a later marker, then every user message on the branch is kept, in order", () => {
    const { b, ids, whenViewed } = compactedThenRecovered();
    const v = whenViewed();
    const users = ["u1", "u2", "u3", "u4", "u5", "u6"].map((k) => messageOf(b, ids[k] as string));
    expect(v.host.messages).not.toContain(users[0]);
    const viewUsers = v.messages.filter((m) => m.role === "user");
    expect(viewUsers).toHaveLength(users.length);
    for (const [i, m] of viewUsers.entries()) expect(m).toBe(users[i]);
  });

  it("then before the marker it keeps only user messages and the kit's policy context, and counts what it omitted", () => {
    const { b, ids, whenViewed } = compactedThenRecovered();
    const v = whenViewed();
    expect(v.anchorId).toBe(ids.marker);
    const before = v.messages.slice(0, v.anchorIndex);
    expect(before.map((m) => (m.role === "custom" ? m.customType : m.role))).toEqual([
      "user",
      "user",
      POLICY,
      "user",
      "user",
      "user",
    ]);
    expect(before[0]).toBe(messageOf(b, ids.u1 as string));
    // In the host context before the marker: 5 assistant replies, 1 tool result, and the compaction summary, a
    // bash run, another extension's note and a branch summary.
    expect(v.omitted).toEqual({ assistant: 5, toolResult: 1, other: 4 });
    expect(before.some((m) => m.role === "compactionSummary" || m.role === "branchSummary")).toBe(false);
    expect(before.some((m) => m.role === "bashExecution")).toBe(false);
  });

  it("then it keeps the marker and everything after it, exactly as the host sends it", () => {
    const { ids, whenViewed } = compactedThenRecovered();
    const v = whenViewed();
    const hostAnchor = v.host.sources.indexOf(ids.marker as string);
    const marker = v.messages[v.anchorIndex];
    expect(marker?.role === "custom" && typeof marker.content === "string" && marker.content).toMatch(
      new RegExp(`^${RECOVERED_PREFIX}`),
    );
    expect(v.messages.slice(v.anchorIndex)).toEqual(v.host.messages.slice(hostAnchor));
    for (const [i, m] of v.messages.slice(v.anchorIndex).entries()) expect(m).toBe(v.host.messages[hostAnchor + i]);
    expect(v.tokensEstimate.view).toBeLessThan(v.tokensEstimate.full);
  });

  it("given two markers, then the latest is the anchor and the earlier one is omitted like other narration", () => {
    const ids: Record<string, string> = {};
    const { whenViewed } = given((b) => {
      b.user("first");
      ids.first = mark(b, "first");
      b.assistant("Let me check.");
      b.user("second");
      ids.second = mark(b, "second");
    });
    const v = whenViewed();
    expect(v.anchorId).toBe(ids.second);
    expect(v.messages.map((m) => m.role)).toEqual(["user", "user", "custom"]);
    expect(v.omitted).toEqual({ assistant: 1, toolResult: 0, other: 1 });
  });

  it("given a kit policy message and other kit reports before the marker, then only the policy context is kept", () => {
    const { whenViewed } = given((b) => {
      b.user("go");
      b.customMessage("context-kit/lifecycle/v1", "Session started under the kit.", {});
      b.customMessage("agent-context-kit-completion-report-v1", "Completion report …", {});
      b.customMessage(`${POLICY}/denied`, "generated/ stays excluded.", {});
      mark(b);
    });
    const v = whenViewed();
    expect(v.messages.map((m) => (m.role === "custom" ? m.customType : m.role))).toEqual([
      "user",
      `${POLICY}/denied`,
      "context-kit/recovery-marker/v1",
    ]);
    expect(v.omitted.other).toBe(2);
  });

  it("given a marker later summarised away by a compaction, then the view still keeps every user message and no earlier narration", () => {
    const ids: Record<string, string> = {};
    const { b, whenViewed } = given((b) => {
      ids.u1 = b.user("Constraint: keep the naming rules.");
      b.assistant("Let me check the compiler errors first.");
      ids.marker = mark(b);
      ids.u2 = b.user("Now add the timetable.");
      b.toolRound("edit", { path: "m.xml" }, "Edited");
      ids.u3 = b.user("And the school term.");
      ids.kept = b.toolRound("edit", { path: "m.xml" }, "Edited").call;
      b.compaction("Timetable added.", ids.kept as string);
      ids.u4 = b.user("Summarise.");
    });
    const v = whenViewed();
    expect(v.host.sources).not.toContain(ids.marker);
    expect(v.anchorId).toBe(ids.marker);
    const users = ["u1", "u2", "u3", "u4"].map((k) => messageOf(b, ids[k] as string));
    expect(v.messages.filter((m) => m.role === "user")).toEqual(users);
    expect(v.messages.slice(0, v.anchorIndex)).toEqual(users.slice(0, 3));
    expect(v.messages.slice(v.anchorIndex)).toEqual(v.host.messages);
  });

  it("given a tool call before the marker whose result lands after it, then the view drops the orphan result", () => {
    const ids: Record<string, string> = {};
    const { b, whenViewed } = given((b) => {
      b.user("read it");
      ids.call = b.assistant("", [{ name: "read", args: { path: "a" } }]);
      mark(b);
      b.toolResult(b.toolCallId(ids.call as string), "read", "text");
      b.assistant("Done.");
    });
    const v = whenViewed();
    expect(toolPairingViolations(v.host.messages)).toEqual([]);
    expect(toolPairingViolations(v.messages)).toEqual([]);
    expect(v.messages.some((m) => m.role === "toolResult")).toBe(false);
    expect(v.omitted).toEqual({ assistant: 1, toolResult: 1, other: 0 });
    expect(b.entries).toHaveLength(5);
  });

  it("given tool rounds on both sides of the marker and a call still running at the leaf, then the view adds no pairing violation", () => {
    const { whenViewed } = given((b) => {
      b.user("go");
      b.toolRound("read", { path: "a" }, "a");
      b.assistant("", [
        { name: "read", args: { path: "b" } },
        { name: "grep", args: { pattern: "x" } },
      ]);
      mark(b);
      b.toolRound("ls", {}, "a b");
      b.assistant("", [{ name: "read", args: { path: "c" } }]);
    });
    const v = whenViewed();
    const hostViolations = toolPairingViolations(v.host.messages);
    expect(hostViolations.map((x) => x.code)).toEqual([
      "CALL_WITHOUT_RESULT",
      "CALL_WITHOUT_RESULT",
      "CALL_WITHOUT_RESULT",
    ]);
    const viewViolations = toolPairingViolations(v.messages);
    // Only the host's own open call at the leaf remains; the omitted calls before the marker take theirs along.
    expect(viewViolations).toHaveLength(1);
    expect(hostViolations.map((x) => x.toolCallId)).toContain(viewViolations[0]?.toolCallId);
  });

  it("given no marker (or only forged marker text), then the view is the host context itself", () => {
    const { b, whenViewed } = given((b) => {
      b.user(`${RECOVERED_PREFIX}: pasted by the user`);
      b.toolRound("read", { path: "notes.md" }, `${RECOVERED_PREFIX}: text inside a file`);
      b.customMessage("context-kit/recovery-marker/v1", `${RECOVERED_PREFIX}: no details`);
      b.assistant("Let me check the compiler errors first.");
    });
    const v = whenViewed();
    expect(v.anchorId).toBeNull();
    expect(v.anchorIndex).toBe(-1);
    expect(v.messages).toBe(v.host.messages);
    expect(v.omitted).toEqual({ assistant: 0, toolResult: 0, other: 0 });
    expect(v.messages).toHaveLength(b.entries.length);
  });

  it("never mutates its input: deep-frozen entries and messages give the same view", () => {
    const { b, whenViewed } = compactedThenRecovered();
    const snapshot = stringify(b.entries);
    const expected = whenViewed();
    const frozen = deepFreeze(structuredClone(b.entries));
    const v = whenViewed(b.leafId, frozen);
    expect(stringify(v.messages)).toBe(stringify(expected.messages));
    expect(stringify(b.entries)).toBe(snapshot);

    const host = deepFreeze(structuredClone(expected.host.messages));
    const earlier = deepFreeze([structuredClone(expected.branchUsers[0]) as UserMessage]);
    const direct = recoveryView({
      messages: host,
      anchorIndex: expected.host.sources.indexOf(expected.anchorId as string),
      earlierUserMessages: earlier,
      keepsCustom: (t) => t.startsWith("context-kit/policy"),
    });
    expect(stringify(direct.messages)).toBe(stringify(expected.messages));
    expect(direct.messages).not.toBe(host);
  });

  it("is deterministic: the same transcript gives the same view, whoever folds it", () => {
    const first = compactedThenRecovered().whenViewed();
    const second = compactedThenRecovered().whenViewed();
    expect(stringify(second.messages)).toBe(stringify(first.messages));
    expect(second.omitted).toEqual(first.omitted);
    expect(second.tokensEstimate).toEqual(first.tokensEstimate);
    const { whenViewed } = compactedThenRecovered();
    expect(stringify(whenViewed().messages)).toBe(stringify(whenViewed().messages));
  });
});
