import "../helpers/faux-env.js";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { KIT } from "../../reducers/contract/kit-entries.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { recoveryMarker } from "../../src/kit/host-messages.js";
import type { AgentMessage } from "../../src/log/entry-types.js";
import { handleContextRequest } from "../../src/pi/context-hook.js";
import { LiveDigests } from "../../src/pi/live-digests.js";
import { LiveState } from "../../src/pi/live-state.js";
import { loadSessionText } from "../../src/session.js";
import { viewOfLeaf } from "../../src/view/leaf-view.js";
import { recordedRequests, verifyRequest } from "../../src/view/recorded-requests.js";
import { comparable, requestDigest } from "../../src/view/request-digest.js";
import { cleanupFauxHarnesses, pi } from "../helpers/faux-sdk.js";

afterAll(() => cleanupFauxHarnesses());

const PROMISE = "Let me check the compiler errors first.";
const GUIDANCE = [null, "[project data] keep functions small", "[project data] name every constant"];
const denial = (scope: string) => ({
  code: "CONTEXT_ACCESS_DENIED",
  status: "excluded",
  blocked: true,
  retryable: false,
  scope,
  rule: `marker:${scope}/.context-exclude`,
  path: `${scope}/x.ts`,
});

type Op =
  | { kind: "request"; pendingUser: boolean; pendingMarker: boolean; guidance: number; allow: boolean }
  | { kind: "reply"; promise: boolean }
  | { kind: "tool"; result: "ok" | "denied" | "missing"; scope: number }
  | { kind: "marker" }
  | { kind: "compact"; keep: number }
  | { kind: "branch"; back: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("request" as const),
      pendingUser: fc.boolean(),
      pendingMarker: fc.boolean(),
      guidance: fc.integer({ min: 0, max: 2 }),
      allow: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("reply" as const), promise: fc.boolean() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("tool" as const),
      result: fc.constantFrom("ok" as const, "denied" as const, "missing" as const),
      scope: fc.integer({ min: 0, max: 1 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("marker" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("compact" as const), keep: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("branch" as const), back: fc.nat(30) }) },
);

/** Requests whose digest extended the previous request's chain. */
let reused = 0;

/** The host's own session manager, driven as a live session is; the kit's context hook on every request. */
function drive(ops: readonly Op[]) {
  const sm = pi.SessionManager.inMemory("/p");
  const live = new LiveState();
  const digests = new LiveDigests();
  const sent: AgentMessage[][] = [];
  let clock = Date.UTC(2026, 0, 1);
  let calls = 0;
  const user = (text: string): AgentMessage => ({
    role: "user",
    content: [{ type: "text", text }],
    timestamp: clock++,
  });
  sm.appendMessage(user("first request") as never);
  for (const o of ops) {
    switch (o.kind) {
      case "request": {
        const context = sm.buildSessionContext().messages as unknown as AgentMessage[];
        const pending: AgentMessage[] = [];
        if (o.pendingUser) pending.push(user(`request ${clock}`));
        const marker = recoveryMarker({ requestId: null, promiseEntryIds: [], reason: "resumed" });
        // In memory the host stamps a custom message when it creates it, and its entry again when it persists it.
        if (o.pendingMarker) pending.push({ role: "custom", ...marker, timestamp: clock++ - 5000 } as AgentMessage);
        const messages = structuredClone([...context, ...pending]);
        const view = handleContextRequest({
          session: sm,
          live,
          digests,
          kitVersion: "test",
          messages,
          inputs: (state) => [
            {
              guidance: GUIDANCE[o.guidance] ?? null,
              allowedAgain: o.allow
                ? Object.values(state.denials)
                    .slice(0, 1)
                    .map((d) => ({ scope: d.scope, rule: d.rule }))
                : [],
            },
          ],
          append: (customType, data) => sm.appendCustomEntry(customType, data),
        });
        sent.push(view.messages);
        if (!digests.lastWork.fromScratch) reused++;
        for (const m of pending) {
          if (m.role === "custom") sm.appendCustomMessageEntry(m.customType, m.content as string, true, m.details);
          else sm.appendMessage(m as never);
        }
        break;
      }
      case "reply":
        sm.appendMessage({
          role: "assistant",
          content: [{ type: "text", text: o.promise ? PROMISE : `answer ${clock}` }],
          api: "faux",
          provider: "faux",
          model: "faux-1",
          stopReason: "stop",
          timestamp: clock++,
        } as never);
        break;
      case "tool": {
        const id = `call_${calls++}`;
        sm.appendMessage({
          role: "assistant",
          content: [{ type: "toolCall", id, name: "read", arguments: { path: "x" } }],
          api: "faux",
          provider: "faux",
          model: "faux-1",
          stopReason: "toolUse",
          timestamp: clock++,
        } as never);
        const scope = ["/p/gen", "/p/out"][o.scope] as string;
        const details =
          o.result === "denied"
            ? denial(scope)
            : o.result === "missing"
              ? { code: "FILE_NOT_FOUND", retryable: false, path: `${scope}.ts` }
              : { path: `${scope}.ts` };
        sm.appendMessage({
          role: "toolResult",
          toolCallId: id,
          toolName: "read",
          content: [{ type: "text", text: o.result }],
          details,
          isError: o.result !== "ok",
          timestamp: clock++,
        } as never);
        break;
      }
      case "marker": {
        const m = recoveryMarker({ requestId: null, promiseEntryIds: [], reason: "stall" });
        sm.appendCustomMessageEntry(m.customType, m.content, true, m.details);
        break;
      }
      case "compact": {
        const branch = sm.getBranch().filter((e) => e.type === "message");
        const kept = branch[Math.max(0, branch.length - 1 - o.keep)];
        if (kept) sm.appendCompaction(`summary ${clock++}`, kept.id, 1000);
        break;
      }
      case "branch": {
        const branch = sm.getBranch();
        const target = branch[Math.max(0, branch.length - 1 - o.back)];
        if (target) sm.branch(target.id);
        break;
      }
    }
  }
  const text = [JSON.stringify(sm.getHeader()), ...sm.getEntries().map((e) => JSON.stringify(e))].join("\n");
  return { text: `${text}\n`, sent };
}

const withoutCustomStamps = (messages: readonly AgentMessage[]) =>
  JSON.parse(JSON.stringify(messages.map(comparable))) as unknown;

describe("the live hook on the host's SessionManager and the offline view", () => {
  it("compute the same view at every request's leaf, on random trees with kit entries (pending messages, guidance, denials, markers, compactions, branches)", () => {
    let requests = 0;
    let anchored = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 5, maxLength: 60 }), (ops) => {
        const { text, sent } = drive(ops);
        const { tree } = loadSessionText("live.jsonl", text);
        const fold = foldTree(tree);
        const recorded = recordedRequests(tree);
        expect(recorded).toHaveLength(sent.length);
        recorded.forEach((request, i) => {
          expect(request.leafId).not.toBeNull();
          const offline = viewOfLeaf(tree, fold, request.leafId);
          expect(withoutCustomStamps(offline.messages)).toEqual(withoutCustomStamps(sent[i] as AgentMessage[]));
          expect(verifyRequest(tree, fold, request, "test").status).toBe("verified");
          expect(request.recorded.digest).toBe(requestDigest(structuredClone(sent[i] as AgentMessage[])));
          if (offline.anchorIndex >= 0) anchored++;
          requests++;
        });
        expect(tree.entries.filter((e) => e.type === "custom" && e.customType === KIT.requestDigest)).toHaveLength(
          sent.length,
        );
      }),
      { numRuns: 150 },
    );
    expect(requests).toBeGreaterThan(300);
    expect(anchored).toBeGreaterThan(20);
    expect(reused).toBeGreaterThan(100);
  });
});
