import { realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_REMINDER_PATH, policyReminder } from "../../projections/policy-reminder.js";
import { isDenial, isFileIssue } from "../../reducers/contract/tool-details.js";
import type { KitState } from "../../reducers/state.js";
import type { ToolResult } from "../../src/tools/tool-types.js";
import { stateAt } from "../helpers/given.js";
import { type Fixture, makeFixture } from "../policy/fixture.js";
import { SessionBuilder } from "../synth/session-builder.js";

let f: Fixture;
let root: string;
beforeEach(() => {
  f = makeFixture();
  root = realpathSync(f.root);
  symlinkSync("loop-a", join(f.root, "loop-b"));
  symlinkSync("loop-b", join(f.root, "loop-a"));
  symlinkSync("self", join(f.root, "self"));
});
afterEach(() => f.cleanup());

const LONG = "x".repeat(300);
const text = (r: ToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
const run = (tool: keyof Fixture["tools"], params: Record<string, unknown>) =>
  f.tools[tool].execute("call", params as never, undefined, undefined, undefined) as Promise<ToolResult>;

const CALLS: [keyof Fixture["tools"], (path: string) => Record<string, unknown>][] = [
  ["read", (path) => ({ path })],
  ["ls", (path) => ({ path })],
  ["grep", (path) => ({ pattern: "x", path })],
  ["find", (path) => ({ pattern: "*", path })],
  ["write", (path) => ({ path, content: "x" })],
  ["edit", (path) => ({ path, edits: [{ oldText: "a", newText: "b" }] })],
];

describe("paths that name no file are file errors, not denials", () => {
  for (const [tool, params] of CALLS) {
    it(`given a name longer than the file system allows, when ${tool} is called, then it is PATH_TOO_LONG with a bounded message`, async () => {
      for (const path of [`${LONG}.txt`, `src/${LONG}/a.ts`]) {
        const r = await run(tool, params(path));
        expect(isDenial(r.details), path).toBe(false);
        expect(r.details).toMatchObject({ code: "PATH_TOO_LONG", retryable: false });
        expect(text(r)).not.toContain("excluded");
        expect(text(r)).not.toContain("could not verify");
        expect(text(r)).not.toContain(LONG);
        expect(text(r).length).toBeLessThan(400);
      }
      expect(f.denials.count(`marker-unverifiable:${join(root, `${LONG}.txt`)}`)).toBe(0);
    });

    it(`given a symlink loop, when ${tool} is called through it, then it is SYMLINK_LOOP`, async () => {
      for (const path of ["loop-a/file.txt", "self/x", "loop-b/deeper/y.ts"]) {
        const r = await run(tool, params(path));
        expect(isDenial(r.details), `${tool} ${path}`).toBe(false);
        expect(r.details, `${tool} ${path}`).toMatchObject({ code: "SYMLINK_LOOP", retryable: false });
        expect(text(r)).toContain("loop of symbolic links");
      }
    });
  }

  it("given a loop inside an excluded directory, then the marker still wins (a denial, not a file error)", async () => {
    symlinkSync("inner", join(f.root, "private", "inner"));
    const r = await run("read", { path: "private/inner/x" });
    expect(isDenial(r.details)).toBe(true);
    expect(r.details).toMatchObject({ rule: `marker:${join(root, "private", ".context-exclude")}` });
  });

  it("given the file issue in the session, then the reminder line quotes the path bounded", async () => {
    const r = await run("read", { path: `src/${LONG}/a.ts` });
    expect(isFileIssue(r.details)).toBe(true);
    const b = new SessionBuilder();
    b.user("read it");
    b.toolRound("read", { path: `src/${LONG}/a.ts` }, text(r), r.details);
    b.toolRound("read", { path: "/etc/passwd" }, "denied", {
      code: "CONTEXT_ACCESS_DENIED",
      status: "excluded",
      blocked: true,
      retryable: false,
      scope: join(root, LONG),
      rule: `marker:${join(root, LONG, ".context-exclude")}`,
      path: join(root, LONG, "a"),
    });
    const state: KitState = stateAt(b, b.leafId);
    const reminder = policyReminder(state, 0);
    const lines = String(reminder?.content).split("\n");
    expect(lines.some((l) => l.includes("PATH_TOO_LONG"))).toBe(true);
    for (const line of lines) {
      expect(line).not.toContain(LONG);
      expect(line.length).toBeLessThan(MAX_REMINDER_PATH + 160);
    }
  });
});
