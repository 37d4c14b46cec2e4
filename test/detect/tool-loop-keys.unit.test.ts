import { describe, expect, it } from "vitest";
import type { ToolResultRef } from "../../reducers/state.js";
import {
  callKey,
  canonicalArgs,
  failedResult,
  madeProgress,
  resultKey,
  sameArgs,
  stripVolatile,
  unknownTool,
  waitingPoll,
} from "../../src/detect/tool-loop-keys.js";
import { Random } from "../synth/random.js";

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

describe("fast paths give the reference forms", () => {
  /** The reference: a sorted copy, then JSON; and every pattern applied without its pre-test. */
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (value === null || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sorted(v);
    }
    return out;
  };
  const KEYS = ["a", "b", "0", "1", "10", "z", "", "_", "A", "aa", "é", "2x"];

  it("call keys of random arguments (keys in and out of order, integer keys, undefined, nesting)", () => {
    const rnd = new Random(17);
    const value = (depth: number): unknown => {
      const t = rnd.int(depth > 3 ? 3 : 6);
      if (t === 0) return rnd.int(100);
      if (t === 1) return `s${rnd.int(9)}`;
      if (t === 2) return null;
      if (t === 3) return Array.from({ length: rnd.int(4) }, () => value(depth + 1));
      const o: Record<string, unknown> = {};
      for (let i = rnd.int(5); i > 0; i--)
        o[rnd.pick(KEYS) + (rnd.chance(0.3) ? rnd.pick(KEYS) : "")] = rnd.chance(0.8) ? value(depth + 1) : undefined;
      return o;
    };
    for (let i = 0; i < 5000; i++) {
      const args = value(0);
      expect(callKey("t", args)).toBe(`t\u0000${JSON.stringify(sorted(args ?? {})) ?? "null"}`);
    }
    expect(callKey("t", { when: new Date(0) })).toBe(`t\u0000{"when":{}}`);
  });

  it("volatile parts of random texts", () => {
    const rnd = new Random(18);
    const TOKENS = ["pid 123", " ", "\t", "\n", "tmp_1", "/tmp/x", "took: 3ms", "2026-01-02T10:11:12Z", "10:11:12 PM"];
    const MORE = ["1712345678", "\u001b[31m", 'time="x"', "Temp9", "process#4", "abc", "12", "=", ":", "-", "µs"];
    const all = [...TOKENS, ...MORE, "/var/folders/a", "duration"];
    const reference = (text: string) =>
      text
        .replace(
          /("?\b[\w-]*(?:duration|elapsed|took|latency|timestamp|time|date|started|finished|ended|uptime|pid)[\w-]*"?\s*[:=]\s*)("[^"\n]*"|[\d.]+[a-zµ]*)/gi,
          "$1<v>",
        )
        .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "")
        .replace(/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, "<time>")
        .replace(/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?:\s?[AP]M)?\b/g, "<time>")
        .replace(/\b1[5-9]\d{8}(?:\d{3})?\b/g, "<epoch>")
        .replace(
          /\b\d+(?:[.,]\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|m|mins?|minutes?|h|hrs?|hours?)\b/gi,
          "<duration>",
        )
        .replace(/\b(pid|process|ppid)(\s*[:=#]?\s*)\d+/gi, "$1$2<pid>")
        .replace(/(\/(?:tmp|var\/folders|private\/var)\/)[^\s'":,)]+/g, "$1<tmp>")
        .replace(/\b(tmp|temp)[-_.]?[\w-]*\d[\w-]*/gi, "<tmp>")
        .replace(/[ \t]+$/gm, "")
        .trim();
    for (let i = 0; i < 5000; i++) {
      const text = Array.from({ length: rnd.int(12) }, () => rnd.pick(all)).join(rnd.chance(0.5) ? "" : " ");
      expect(stripVolatile(text)).toBe(reference(text));
    }
  });
});

describe("arguments compared as data", () => {
  it("agree with their canonical keys whenever they decide (random pairs: reordered, changed, odd values)", () => {
    const rnd = new Random(19);
    const ODD = [undefined, Number.NaN, Number.POSITIVE_INFINITY, -0, 0, () => 1, new Date(0), "", null, false];
    const value = (depth: number): unknown => {
      const t = rnd.int(depth > 2 ? 4 : 7);
      if (t === 0) return rnd.int(3);
      if (t === 1) return `s${rnd.int(3)}`;
      if (t === 2) return rnd.pick(ODD);
      if (t === 3) return rnd.chance(0.5);
      if (t === 4) return Array.from({ length: rnd.int(3) }, () => value(depth + 1));
      const o: Record<string, unknown> = {};
      for (let i = rnd.int(4); i > 0; i--) o[rnd.pick(["a", "b", "1", "z", "__proto__", "toJSON"])] = value(depth + 1);
      return o;
    };
    /** A copy with keys in another order, sometimes one part changed. */
    const variant = (v: unknown): unknown => {
      if (rnd.chance(0.1)) return value(2);
      if (Array.isArray(v)) return v.map(variant);
      if (v === null || typeof v !== "object" || v instanceof Date) return v;
      const keys = Object.keys(v).reverse();
      const out: Record<string, unknown> = {};
      for (const k of keys) out[k] = variant((v as Record<string, unknown>)[k]);
      if (rnd.chance(0.1)) out.extra = undefined;
      return out;
    };
    let decided = 0;
    for (let i = 0; i < 20_000; i++) {
      const a = value(0);
      const b = rnd.chance(0.7) ? variant(a) : value(0);
      const same = sameArgs(a, b);
      if (same === undefined) continue;
      decided++;
      expect(same).toBe(canonicalArgs(a) === canonicalArgs(b));
    }
    expect(decided).toBeGreaterThan(10_000);
    expect(sameArgs({ path: "a", offset: 1 }, { offset: 1, path: "a" })).toBe(true);
    expect(sameArgs({ path: "a" }, { path: "b" })).toBe(false);
    expect(sameArgs({ when: new Date(0) }, { when: new Date(1) })).toBeUndefined();
  });
});

describe("generated ids, soft failures, polls and missing tools", () => {
  it("strips generated ids and counters, keeps other values", () => {
    expect(stripVolatile('{"messageId":"m-81","runId":"abc-1","seq":7,"target":"ops"}')).toBe(
      '{"messageId":<id>,"runId":<id>,"seq":<id>,"target":"ops"}',
    );
    expect(stripVolatile("sent 0b1e7c2a-9f1d-4e3a-8c2b-1d2e3f4a5b6c")).toBe("sent <uuid>");
    expect(stripVolatile("3 messages sent")).toBe("3 messages sent");
  });

  it("a JSON status error or ok false fails without the flag; a plain answer does not", () => {
    const tool = { tool: "message", args: { action: "send" } };
    expect(failedResult(result('{"status": "error", "error": "no target"}', tool))).toBe(true);
    expect(failedResult(result('{"ok": false}', tool))).toBe(true);
    expect(failedResult(result('{"status": "ok"}', tool))).toBe(false);
    expect(failedResult(result('{"status": "error"', tool))).toBe(false);
  });

  it("a poll waits unless its target is missing; a missing tool is recognised by the host's answer", () => {
    const poll = { tool: "process", args: { action: "poll", sessionId: "x" } };
    expect(waitingPoll(result("(no new output)\n\nProcess still running.", poll))).toBe(true);
    expect(waitingPoll(result("No session found for x", poll))).toBe(false);
    expect(failedResult(result("No session found for x", poll))).toBe(true);
    expect(waitingPoll(result("compiled 3 modules"))).toBe(false);
    expect(unknownTool(result("Tool tavily not found", { isError: true }))).toBe(true);
    expect(unknownTool(result("Tool tavily not found"))).toBe(false);
  });
});
