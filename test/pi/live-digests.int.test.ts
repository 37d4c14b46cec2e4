import "../helpers/faux-env.js";
import { afterAll, describe, expect, it } from "vitest";
import { foldTree } from "../../src/fold/session-fold.js";
import { recoveryMarker } from "../../src/kit/host-messages.js";
import type { AgentMessage } from "../../src/log/entry-types.js";
import { handleContextRequest } from "../../src/pi/context-hook.js";
import { type DigestWork, LiveDigests } from "../../src/pi/live-digests.js";
import { LiveState } from "../../src/pi/live-state.js";
import { loadSessionText } from "../../src/session.js";
import { recordedRequests, verifyRequest } from "../../src/view/recorded-requests.js";
import { requestDigest } from "../../src/view/request-digest.js";
import { cleanupFauxHarnesses, pi } from "../helpers/faux-sdk.js";

afterAll(() => cleanupFauxHarnesses());

const BASE = Date.UTC(2026, 0, 1);

/**
 * A live session on the host's own SessionManager: the agent's messages kept in memory as the host keeps them
 * (appended to, replaced on compaction and branch moves), each request handed a deep copy, as the host's `context`
 * event is, and run through the kit's hook.
 */
function liveSession() {
  const sm = pi.SessionManager.inMemory("/p");
  const live = new LiveState();
  const digests = new LiveDigests();
  let agent: AgentMessage[] = [];
  let clock = BASE;
  let calls = 0;
  let guidance: string | null = null;
  const requests: { digest: string; sent: AgentMessage[]; work: DigestWork }[] = [];
  const append = (message: AgentMessage) => {
    sm.appendMessage(message as never);
    agent.push(message);
  };
  const s = {
    sm,
    digests,
    requests,
    user(text: string) {
      append({ role: "user", content: [{ type: "text", text }], timestamp: clock++ });
    },
    /** A tool call and its result (`size` characters). */
    toolStep(size = 40) {
      const id = `call_${calls++}`;
      append({
        role: "assistant",
        content: [{ type: "toolCall", id, name: "read", arguments: { path: `f${id}.ts` } }],
        api: "faux",
        provider: "faux",
        model: "faux-1",
        stopReason: "toolUse",
        timestamp: clock++,
      } as AgentMessage);
      append({
        role: "toolResult",
        toolCallId: id,
        toolName: "read",
        content: [{ type: "text", text: "x".repeat(size) }],
        isError: false,
        timestamp: clock++,
      } as AgentMessage);
    },
    marker() {
      const m = recoveryMarker({ requestId: null, promiseEntryIds: [], reason: "stall" });
      sm.appendCustomMessageEntry(m.customType, m.content, true, m.details);
      agent.push({ role: "custom", ...m, display: true, timestamp: clock++ } as AgentMessage);
    },
    guidance(text: string | null) {
      guidance = text;
    },
    /** The host rebuilds its messages from the session (after a compaction or a move in the tree). */
    rebuild() {
      agent = sm.buildSessionContext().messages as unknown as AgentMessage[];
    },
    compact(keepLast: number) {
      const kept = sm.getBranch().filter((e) => e.type === "message");
      sm.appendCompaction(`summary ${clock++}`, (kept[kept.length - keepLast] ?? kept[0])!.id, 1000);
      s.rebuild();
    },
    branchTo(back: number) {
      const branch = sm.getBranch();
      sm.branch(branch[branch.length - 1 - back]!.id);
      s.rebuild();
    },
    /** One request; `edit` changes the host's copy first (a rewrite the log does not hold). */
    request(edit?: (messages: AgentMessage[]) => void) {
      const messages = structuredClone(agent);
      edit?.(messages);
      const view = handleContextRequest({
        session: sm,
        live,
        digests,
        kitVersion: "test",
        messages,
        inputs: () => [{ guidance, allowedAgain: [] }],
        append: (customType, data) => sm.appendCustomEntry(customType, data),
      });
      const entry = sm.getEntry(sm.getLeafId()!) as unknown as { data: { digest: string } };
      requests.push({ digest: entry.data.digest, sent: view.messages, work: digests.lastWork });
      return requests[requests.length - 1]!;
    },
    /** Every recorded request as `check` verifies it from the saved file. */
    checked() {
      const text = [sm.getHeader(), ...sm.getEntries()].map((e) => JSON.stringify(e)).join("\n");
      const { tree } = loadSessionText("live.jsonl", `${text}\n`);
      const fold = foldTree(tree);
      return recordedRequests(tree).map((r) => verifyRequest(tree, fold, r, "test").status);
    },
  };
  return s;
}

/** The digest of what was sent, from scratch: fresh objects, no memo. */
const fromScratch = (sent: readonly AgentMessage[]) => requestDigest(structuredClone(sent));

describe("live request digests", () => {
  it("given a growing branch, when each request adds a tool step, then only the new messages are hashed and linked, whatever the length", () => {
    const s = liveSession();
    s.user("start");
    for (let i = 0; i < 300; i++) s.toolStep();
    const first = s.request();
    expect(first.work).toMatchObject({ fromScratch: true, messagesHashed: 601 });
    for (let i = 0; i < 20; i++) {
      s.toolStep();
      const r = s.request();
      expect(r.work).toEqual({ messagesHashed: 2, links: 2, fromScratch: false });
      expect(r.digest).toBe(fromScratch(r.sent));
    }
    expect(s.checked().every((status) => status === "verified")).toBe(true);
  });

  it("given guidance that changes, then the digest is still that of what was sent, and only the guidance is hashed again", () => {
    const s = liveSession();
    s.user("start");
    for (let i = 0; i < 50; i++) s.toolStep();
    s.guidance("rule one");
    s.request();
    s.toolStep();
    const same = s.request();
    // the guidance is hashed again but its link is kept: only the two new messages are linked
    expect(same.work).toEqual({ messagesHashed: 3, links: 2, fromScratch: false });
    s.guidance("rule two");
    s.toolStep();
    const changed = s.request();
    // the guidance and the two new messages hashed; the whole chain linked again from the new guidance
    expect(changed.work.messagesHashed).toBe(3);
    expect(changed.work.links).toBe(1 + 105);
    for (const r of s.requests) expect(r.digest).toBe(fromScratch(r.sent));
    expect(s.checked()).toEqual(["verified", "verified", "verified"]);
  });

  it("given a compaction, then the next request starts over and is verified", () => {
    const s = liveSession();
    s.user("start");
    for (let i = 0; i < 30; i++) s.toolStep();
    s.request();
    s.compact(6);
    s.user("go on");
    const after = s.request();
    expect(after.work.fromScratch).toBe(true);
    expect(after.digest).toBe(fromScratch(after.sent));
    s.toolStep();
    expect(s.request().work.fromScratch).toBe(false);
    expect(s.checked()).toEqual(["verified", "verified", "verified"]);
  });

  it("given a move back in the tree and a new message of the same shape there, then the next request starts over and is verified", () => {
    const s = liveSession();
    s.user("start");
    for (let i = 0; i < 30; i++) s.toolStep();
    s.request();
    s.toolStep();
    s.request();
    s.branchTo(6);
    s.toolStep();
    const moved = s.request();
    expect(moved.work.fromScratch).toBe(true);
    expect(moved.digest).toBe(fromScratch(moved.sent));
    expect(s.checked()).toEqual(["verified", "verified", "verified"]);
  });

  it("given a recovery view, then each request links only what it adds to the previous view", () => {
    const s = liveSession();
    s.user("start");
    for (let i = 0; i < 40; i++) s.toolStep();
    s.marker();
    s.request();
    for (let i = 0; i < 5; i++) {
      s.toolStep();
      const r = s.request();
      expect(r.work).toMatchObject({ messagesHashed: 2, links: 2, fromScratch: false });
      expect(r.digest).toBe(fromScratch(r.sent));
    }
    expect(s.checked().every((status) => status === "verified")).toBe(true);
  });

  it("given the host's copy rewritten at its newest message, then the digest is that of what was sent", () => {
    const s = liveSession();
    s.user("start");
    for (let i = 0; i < 30; i++) s.toolStep();
    s.request();
    const r = s.request((messages) => {
      (messages[messages.length - 1] as { content: unknown }).content = [{ type: "text", text: "other text" }];
    });
    expect(r.work.fromScratch).toBe(true);
    expect(r.digest).toBe(fromScratch(r.sent));
  });

  it("given an older message rewritten at a probed position (the first), then the request starts over", () => {
    const s = liveSession();
    s.user("start");
    for (let i = 0; i < 200; i++) s.toolStep();
    s.request();
    const r = s.request((messages) => {
      (messages[0] as { content: unknown }).content = [{ type: "text", text: "rewritten" }];
    });
    expect(r.work.fromScratch).toBe(true);
    expect(r.digest).toBe(fromScratch(r.sent));
  });

  it("given an older message rewritten in the request alone at a position no probe looks at, then the reused digest is that of the log (the documented limit)", () => {
    const s = liveSession();
    s.user("start");
    for (let i = 0; i < 200; i++) s.toolStep();
    s.request();
    // 401 messages: the probes look at 400, 399, 397, 393, …, 145, 0
    const r = s.request((messages) => {
      (messages[137] as { content: unknown }).content = [{ type: "text", text: "rewritten" }];
    });
    expect(r.work.fromScratch).toBe(false);
    expect(r.digest).not.toBe(fromScratch(r.sent));
    expect(s.checked()).toEqual(["verified", "verified"]);
  });
});
