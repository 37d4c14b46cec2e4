import { describe, expect, it } from "vitest";
import { summarizeState } from "../../src/fold/state-summary.js";
import { type StatusInputs, statusLine } from "../../src/pi/tui/status-line.js";
import { given } from "../helpers/given.js";

const ROOT = "/work/project";
const denial = (scope: string, count: number) => ({
  code: "CONTEXT_ACCESS_DENIED",
  status: "excluded",
  blocked: true,
  scope,
  rule: `marker:${scope}/.context-exclude`,
  ...(count > 1 ? { previouslyBlocked: true, scopeCount: count } : {}),
});

function line(state: StatusInputs["state"], more: Partial<StatusInputs> = {}): string {
  return statusLine({
    state,
    deniedThisRequest: [],
    recoveredThisRequest: false,
    verifies: true,
    toolLoop: null,
    ...more,
  });
}

describe("the footer status line", () => {
  it("given a fresh session, says protection is on and nothing happened yet", () => {
    const { before } = given((b) => b.user("hello"));
    expect(line(summarizeState(before))).toBe(
      "kit: protected, none denied | verify r0 no edits (build -, test -; rounds 0/3) | recovery none | loop none",
    );
  });

  it("names the scopes denied in this request, at most two and a count of the rest", () => {
    const { before } = given((b) => b.user("read them"));
    const scopes = [`${ROOT}/secret`, `${ROOT}/vault`, `${ROOT}/private`];
    expect(line(summarizeState(before), { deniedThisRequest: scopes.slice(0, 1) })).toContain("denied secret |");
    expect(line(summarizeState(before), { deniedThisRequest: scopes })).toContain("denied secret, vault +1 |");
  });

  it("when an edit lands, is unverified until both checks pass for the revision", () => {
    const flow = given((b) => b.user("fix it"));
    const edited = flow.when((b) => {
      b.toolRound("write", { path: "a.ts", content: "x" }, "Wrote a.ts", { path: `${ROOT}/a.ts` });
    }).after;
    expect(line(summarizeState(edited))).toContain("verify r1 unverified (build -, test -; rounds 0/3)");
  });

  it("says when no checks are registered, and reports a stall or a recovery in this request", () => {
    const { before } = given((b) => b.user("hello"));
    const state = summarizeState(before);
    expect(line(state, { verifies: false })).toContain("verify r0 (no checks registered)");
    expect(line(state, { recoveredThisRequest: true })).toContain("recovery recovered this request");
    expect(line({ ...state, recovery: { ...state.recovery, stalled: true } })).toContain("recovery STALLED");
  });

  it("names a tool-call loop, and whether the kit marked or stopped it in this request", () => {
    const { before } = given((b) => b.user("list it"));
    const state = summarizeState(before);
    const loop = { kind: "repeat", tools: ["ls", "ls"], marked: false, stopped: false };
    expect(line(state, { toolLoop: loop })).toMatch(/\| loop repeat \(ls\)$/);
    expect(line(state, { toolLoop: { ...loop, marked: true } })).toMatch(/\| loop repeat \(ls\), marked$/);
    expect(line(state, { toolLoop: { ...loop, kind: "ping-pong", tools: ["read", "ls"], stopped: true } })).toMatch(
      /\| loop STOPPED ping-pong \(read, ls\)$/,
    );
  });

  it("is one short line", () => {
    const { before } = given((b) => {
      b.user("go");
      b.toolRound("read", { path: "secret/a" }, "denied", denial(`${ROOT}/secret`, 1), true);
    });
    const text = line(summarizeState(before), {
      deniedThisRequest: [`${ROOT}/${"x".repeat(300)}`, `${ROOT}/b`, `${ROOT}/c`],
    });
    expect(text).not.toContain("\n");
    expect(text.length).toBeLessThan(420);
  });
});
