import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ArgsHashes, EntryFacts } from "../../src/fleet/entry-facts.js";
import type { SessionEntry } from "../../src/log/entry-types.js";

const call = (id: string, args: unknown) => ({ type: "toolCall", id, name: "bash", arguments: args });

function assistant(id: string, calls: unknown[]): SessionEntry {
  const message = { role: "assistant", content: calls, model: "m", provider: "p", usage: { input: 1, output: 1 } };
  return { type: "message", id, parentId: null, timestamp: "2026-01-01T00:00:00Z", message } as unknown as SessionEntry;
}

describe("tool call facts", () => {
  it("hash a call's arguments as canonical JSON: key order does not count, every value does", () => {
    const facts = new EntryFacts("f.jsonl", false);
    facts.take(
      assistant("a1", [
        call("c1", { command: "npm test", timeout: 30 }),
        call("c2", { timeout: 30, command: "npm test" }),
        call("c3", { command: "npm test", timeout: 31 }),
        call("c4", { command: "npm test", timeout: 30 }),
      ]),
    );
    const [c1, c2, c3, c4] = facts.toolCalls.map((c) => c.argsSha256);
    const expected = createHash("sha256").update('{"command":"npm test","timeout":30}').digest("hex");
    expect(c1).toBe(expected);
    expect(c2).toBe(expected);
    expect(c4).toBe(expected);
    expect(c3).not.toBe(expected);
    expect(c3).toMatch(/^[0-9a-f]{64}$/);
  });

  it("hash missing arguments as an empty object", () => {
    const facts = new EntryFacts("f.jsonl", false);
    facts.take(assistant("a1", [{ type: "toolCall", id: "c1", name: "ls" }]));
    expect(facts.toolCalls[0]?.argsSha256).toBe(createHash("sha256").update("{}").digest("hex"));
  });

  it("hash alike when files share one memo, past its bound too", () => {
    const hex = (text: string) => createHash("sha256").update(text).digest("hex");
    const shared = new ArgsHashes(2);
    const calls = [
      { path: "a.ts" },
      { path: "b.ts" },
      { path: "c.ts" },
      { path: "a.ts" },
      { content: "x".repeat(2000) },
    ];
    const first = new EntryFacts("one.jsonl", false, shared);
    const second = new EntryFacts("two.jsonl", false, shared);
    first.take(
      assistant(
        "a1",
        calls.map((args, i) => call(`c${i}`, args)),
      ),
    );
    second.take(
      assistant(
        "a1",
        calls.map((args, i) => call(`c${i}`, args)),
      ),
    );
    const expected = calls.map((args) => hex(JSON.stringify(args)));
    expect(first.toolCalls.map((c) => c.argsSha256)).toEqual(expected);
    expect(second.toolCalls.map((c) => c.argsSha256)).toEqual(expected);
  });

  it("keep no long arguments: a file written whole is hashed each time", () => {
    const hashes = new ArgsHashes();
    const long = { content: "x".repeat(2000) };
    expect(hashes.of(long)).toBe(createHash("sha256").update(JSON.stringify(long)).digest("hex"));
    expect(hashes.of({ path: "a.ts" })).toMatch(/^[0-9a-f]{64}$/);
    expect(hashes.size).toBe(1);
  });
});
