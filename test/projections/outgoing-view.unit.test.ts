import { describe, expect, it } from "vitest";
import { GUIDANCE_TYPE, outgoingView } from "../../projections/outgoing-view.js";
import { REMINDER_TYPE } from "../../projections/policy-reminder.js";
import { KIT } from "../../reducers/contract/kit-entries.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { recoveryMarker } from "../../src/kit/host-messages.js";
import type { AgentMessage, CustomMessage, SessionEntry } from "../../src/log/entry-types.js";
import { liveRequest, unpersistedTail } from "../../src/pi/live-request.js";
import type { SessionView } from "../../src/pi/live-state.js";
import { entryMessage } from "../../src/tree/host-context.js";
import { SessionTree } from "../../src/tree/session-tree.js";
import { type LeafView, viewOfLeaf } from "../../src/view/leaf-view.js";
import { requestDigest } from "../../src/view/request-digest.js";
import { SessionBuilder } from "../synth/session-builder.js";

const denied = (scope: string) => ({
  code: "CONTEXT_ACCESS_DENIED",
  status: "excluded",
  blocked: true,
  retryable: false,
  scope,
  rule: `marker:${scope}/.context-exclude`,
  path: `${scope}/x.ts`,
});
const missing = (path: string) => ({ code: "FILE_NOT_FOUND", retryable: false, path });

function mark(b: SessionBuilder, reason = "test"): string {
  const m = recoveryMarker({ requestId: null, promiseEntryIds: [], reason });
  return b.customMessage(m.customType, m.content, m.details);
}

/** given(session).whenViewed(leaf?) → the one projection at that leaf, as `view` computes it. */
function given(build: (b: SessionBuilder) => void) {
  const b = new SessionBuilder();
  build(b);
  return {
    b,
    whenViewed(leaf: string | null = b.leafId): LeafView {
      const tree = new SessionTree(b.entries);
      return viewOfLeaf(tree, foldTree(tree), leaf);
    },
  };
}

const text = (m: AgentMessage | undefined) => (m && "content" in m && typeof m.content === "string" ? m.content : "");
const labels = (messages: readonly AgentMessage[]) =>
  messages.map((m) =>
    m.role === "custom" ? m.customType : m.role === "user" ? `user:${JSON.stringify(m.content)}` : m.role,
  );

describe("the outgoing view", () => {
  it("given no kit entries, then the host's messages go out as they are (the same array)", () => {
    const { whenViewed } = given((b) => {
      b.user("hello");
      b.assistant("hi");
    });
    const v = whenViewed();
    expect(v.messages).toBe(v.host.messages);
    expect(v.added).toEqual({ guidance: null, reminder: null });
  });

  it("given a denied scope and a missing file, then the policy reminder names both, last, with timestamp 0", () => {
    const { whenViewed } = given((b) => {
      b.user("look around");
      b.toolRound("read", { path: "gen/x.ts" }, "denied", denied("/p/gen"), true);
      b.toolRound("read", { path: "gone.ts" }, "not found", missing("/p/gone.ts"), true);
    });
    const v = whenViewed();
    expect(v.messages.slice(0, -1)).toEqual(v.host.messages);
    const reminder = v.messages.at(-1) as CustomMessage;
    expect(reminder).toBe(v.added.reminder);
    expect(reminder).toMatchObject({ role: "custom", customType: REMINDER_TYPE, display: false, timestamp: 0 });
    expect(text(reminder)).toContain("/p/gen is excluded by a project marker; 1 attempt(s) were blocked");
    expect(text(reminder)).toContain("/p/gone.ts: FILE_NOT_FOUND");
  });

  it("given a denied scope the policy allows again (a recorded policy-allowed entry), then no reminder", () => {
    const { whenViewed } = given((b) => {
      b.user("look around");
      b.toolRound("read", { path: "gen/x.ts" }, "denied", denied("/p/gen"), true);
      b.custom(KIT.policyAllowed, { scope: "/p/gen" });
    });
    expect(whenViewed().added.reminder).toBeNull();
  });

  it("given recorded root guidance, then it goes first; a later record replaces it, null removes it; other branches keep theirs", () => {
    const ids: Record<string, string> = {};
    const { b, whenViewed } = given((b) => {
      b.custom(KIT.rootGuidance, { text: "[project data] keep functions small" });
      ids.first = b.user("first");
      b.custom(KIT.rootGuidance, { text: "[project data] name every constant" });
      ids.second = b.user("second");
      b.custom(KIT.rootGuidance, { text: null });
      ids.third = b.user("third");
    });
    const atFirst = whenViewed(ids.first);
    expect(atFirst.messages[0]).toEqual({
      role: "custom",
      customType: GUIDANCE_TYPE,
      content: "[project data] keep functions small",
      display: false,
      timestamp: 0,
    });
    expect(atFirst.messages.slice(1)).toEqual(atFirst.host.messages);
    expect(text(whenViewed(ids.second).messages[0])).toBe("[project data] name every constant");
    expect(whenViewed(ids.third).added.guidance).toBeNull();
    b.at(ids.first as string);
    const other = b.user("on another branch");
    expect(text(whenViewed(other).messages[0])).toBe("[project data] keep functions small");
  });

  it("given guidance and an anchor, then guidance, the kept users, the marker and what follows, then the reminder", () => {
    const { whenViewed } = given((b) => {
      b.custom(KIT.rootGuidance, { text: "[project data] rule" });
      b.user("do the task");
      b.assistant("Let me check the compiler errors first.");
      b.toolRound("read", { path: "gen/x.ts" }, "denied", denied("/p/gen"), true);
      mark(b);
      b.assistant("Reading now.");
    });
    const v = whenViewed();
    expect(labels(v.messages)).toEqual([
      GUIDANCE_TYPE,
      'user:[{"type":"text","text":"do the task"}]',
      KIT.recoveryMarker,
      "assistant",
      REMINDER_TYPE,
    ]);
    expect(v.anchorIndex).toBe(2);
    expect(v.omitted).toEqual({ assistant: 2, toolResult: 1, other: 0 });
  });

  it("given an anchor a compaction summarised away, then users before the compaction come back first and the view starts at the summary", () => {
    const ids: Record<string, string> = {};
    const { whenViewed } = given((b) => {
      b.user("Constraint: keep the naming rules.");
      b.assistant("Let me check the compiler errors first.");
      mark(b);
      b.assistant("Still checking.");
      ids.kept = b.user("Now the scenarios.");
      b.assistant("On it.");
      b.compaction("summary of the start", ids.kept);
      b.user("Which object holds grades?");
    });
    const v = whenViewed();
    expect(v.host.messages[0]?.role).toBe("compactionSummary");
    expect(labels(v.messages)).toEqual([
      'user:[{"type":"text","text":"Constraint: keep the naming rules."}]',
      "compactionSummary",
      'user:[{"type":"text","text":"Now the scenarios."}]',
      "assistant",
      'user:[{"type":"text","text":"Which object holds grades?"}]',
    ]);
    expect(v.anchorIndex).toBe(1);
  });

  it("given users before a compaction but no anchor, then nothing comes back: the view is the host's", () => {
    const { whenViewed } = given((b) => {
      b.user("old constraint");
      const kept = b.user("kept");
      b.compaction("summary", kept);
      b.user("new");
    });
    const v = whenViewed();
    expect(v.messages).toBe(v.host.messages);
  });

  it("given a marker whose copy in the messages differs only by timestamp, then it is still the anchor", () => {
    const { b } = given((b) => {
      b.user("go");
      b.assistant("Let me check.");
      mark(b);
    });
    const tree = new SessionTree(b.entries);
    const fold = foldTree(tree);
    const state = fold.stateAt(b.leafId);
    const markerEntry = tree.get(state.recovery.anchorId as string) as SessionEntry;
    const anchor = entryMessage(markerEntry);
    const messages = tree
      .pathTo(b.leafId as string)
      .map(entryMessage)
      .filter((m): m is AgentMessage => m !== null)
      .map((m) => (m.role === "custom" ? { ...m, timestamp: m.timestamp + 7 } : m));
    const view = outgoingView({ messages, state, anchor, branchUsers: () => [] });
    expect(view.anchorIndex).toBe(1);
    expect(view.omitted.assistant).toBe(1);
  });
});

/** A session the host has persisted up to `persisted` entries, as its in-memory session manager shows it. */
function sessionUpTo(b: SessionBuilder, persisted: number): SessionView {
  const entries = b.entries.slice(0, persisted);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const leaf = entries.at(-1)?.id ?? null;
  return {
    getEntry: (id) => byId.get(id),
    getLeafId: () => leaf,
    getSessionFile: () => undefined,
    getSessionId: () => "s",
    getBranch: () => (leaf === null ? [] : new SessionTree(entries).pathTo(leaf)),
  };
}

describe("a live request with messages the host has not persisted yet", () => {
  it("given the new user message and a marker still pending, then the live view equals the offline view once they are persisted", () => {
    const b = new SessionBuilder();
    b.user("Describe the scenarios.");
    b.assistant("Let me check the compiler errors first.");
    b.toolRound("read", { path: "gen/x.ts" }, "denied", denied("/p/gen"), true);
    const persisted = b.entries.length;
    b.user("Scenarios, please.");
    mark(b, "resumed");
    const tree = new SessionTree(b.entries);
    const offline = viewOfLeaf(tree, foldTree(tree), b.leafId);
    // What the host hands the hook: its context for the whole branch, two of them not in the session yet.
    const session = sessionUpTo(b, persisted);
    const messages = offline.host.messages.map((m) => structuredClone(m));
    expect(unpersistedTail(session, messages).map((m) => m.role)).toEqual(["user", "custom"]);
    const persistedState = foldTree(new SessionTree(b.entries.slice(0, persisted))).stateAt(session.getLeafId());
    const live = liveRequest(session, persistedState, messages);
    expect(live.pending).toBe(2);
    expect(live.view.anchorIndex).toBe(offline.anchorIndex);
    expect(live.view.messages).toEqual(offline.messages);
    expect(requestDigest(live.view.messages)).toBe(requestDigest(offline.messages));
  });

  it("given everything persisted, then nothing is pending", () => {
    const b = new SessionBuilder();
    b.user("hello");
    b.assistant("hi");
    const session = sessionUpTo(b, b.entries.length);
    const messages = b.entries.map(entryMessage).filter((m): m is AgentMessage => m !== null);
    expect(unpersistedTail(session, messages)).toEqual([]);
  });
});
