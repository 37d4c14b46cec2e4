import { existsSync, realpathSync } from "node:fs";
import { join, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDenial } from "../../reducers/contract/tool-details.js";
import { createPolicy } from "../../src/policy/index.js";
import { createMemoryDenialTracker } from "../../src/tools/denial-tracker.js";
import { createGuardedTools, type GuardedTools } from "../../src/tools/guarded-tools.js";
import { resultNeedsErrorFlag } from "../../src/tools/issues.js";
import type { ToolResult } from "../../src/tools/tool-types.js";
import {
  EXCLUDED_TOKEN,
  type Fixture,
  HIDDEN_NAMES,
  makeFixture,
  OUTSIDE_TOKEN,
  recording,
  snapshot,
} from "./fixture.js";

/** denied: a policy denial. blocked: any failure (denial, file or input issue). clean: a success that leaks nothing. */
type Expect = "denied" | "blocked" | "clean";
type Tool = keyof GuardedTools;
type Case = [id: string, tool: Tool, params: (f: Fixture) => Record<string, unknown>, expect: Expect];

const p = (path: string) => () => ({ path });
const rel = (build: (f: Fixture) => string) => (f: Fixture) => ({ path: build(f) });
const edit = (path: string) => () => ({ path, edits: [{ oldText: "needle", newText: "changed" }] });
const put = (path: string) => () => ({ path, content: "planted" });

const CASES: Case[] = [
  ["read plain", "read", p("private/hidden-a.txt"), "denied"],
  ["read ./ prefix", "read", p("./private/hidden-a.txt"), "denied"],
  ["read @ prefix", "read", p("@private/hidden-a.txt"), "denied"],
  ["read absolute", "read", rel((f) => join(f.root, "private", "hidden-a.txt")), "denied"],
  ["read .. detour", "read", p("src/../private/hidden-a.txt"), "denied"],
  ["read repeated separators", "read", p("src//..//private///hidden-a.txt"), "denied"],
  ["read ~ path", "read", p("~/project/private/hidden-a.txt"), "denied"],
  ["read @~ path", "read", p("@~/project/private/hidden-a.txt"), "denied"],
  ["read via dir alias", "read", p("private-alias/hidden-a.txt"), "denied"],
  ["read via nested dir link", "read", p("links/to-private/hidden-a.txt"), "denied"],
  ["read file link into excluded", "read", p("links/to-private-file"), "denied"],
  ["read link out of excluded", "read", p("private/escape-to-readme"), "denied"],
  ["read marker file", "read", p("private/.context-exclude"), "denied"],
  ["read nested excluded", "read", p("private/hidden-nested/hidden-deep.txt"), "denied"],
  ["read second marker", "read", p("docs/internal/hidden-notes.md"), "denied"],
  ["read upper-case variant", "read", p("PRIVATE/hidden-a.txt"), "blocked"],
  ["read mixed-case variant", "read", p("Private/Hidden-A.txt"), "blocked"],
  ["read ../ outside", "read", p("../outside/outside-secret.txt"), "denied"],
  ["read absolute outside", "read", rel((f) => join(f.outside, "outside-secret.txt")), "denied"],
  ["read via link to outside dir", "read", p("links/to-outside/outside-secret.txt"), "denied"],
  ["read link to outside file", "read", p("links/to-outside-file"), "denied"],
  ["read ~ outside", "read", p("~/outside/outside-secret.txt"), "denied"],
  ["read @.. outside", "read", p("@../outside/outside-secret.txt"), "denied"],
  ["read excluded dir", "read", p("private"), "denied"],
  ["read re-entering root", "read", p("../project/private/hidden-a.txt"), "denied"],
  ["read dangling link into excluded", "read", p("links/dangling-private"), "denied"],
  ["read /etc/passwd", "read", p("/etc/passwd"), "denied"],
  ["ls excluded dir", "ls", p("private"), "denied"],
  ["ls excluded subdir", "ls", p("private/hidden-nested"), "denied"],
  ["ls dir alias", "ls", p("private-alias"), "denied"],
  ["ls nested dir link", "ls", p("links/to-private"), "denied"],
  ["ls parent of root", "ls", p(".."), "denied"],
  ["ls link to outside", "ls", p("links/to-outside"), "denied"],
  ["ls home", "ls", p("~"), "denied"],
  ["ls upper-case variant", "ls", p("PRIVATE"), "blocked"],
  ["ls root", "ls", p("."), "clean"],
  ["ls links", "ls", p("links"), "clean"],
  ["ls docs", "ls", p("docs"), "clean"],
  ["find everything", "find", () => ({ pattern: "**/*" }), "clean"],
  ["find *.txt", "find", () => ({ pattern: "*.txt" }), "clean"],
  ["find private/**", "find", () => ({ pattern: "private/**" }), "clean"],
  ["find **/private/**/*.txt", "find", () => ({ pattern: "**/private/**/*.txt" }), "clean"],
  ["find hidden names", "find", () => ({ pattern: "**/hidden-*" }), "clean"],
  ["find in excluded dir", "find", () => ({ pattern: "*", path: "private" }), "denied"],
  ["find in dir alias", "find", () => ({ pattern: "*", path: "private-alias" }), "denied"],
  ["find ../ pattern", "find", () => ({ pattern: "../outside/*" }), "clean"],
  ["find absolute outside pattern", "find", (f) => ({ pattern: `${f.outside}/**` }), "clean"],
  ["find absolute excluded pattern", "find", (f) => ({ pattern: `${f.root}/private/**` }), "clean"],
  ["find under links", "find", () => ({ pattern: "**/*", path: "links" }), "clean"],
  ["find from parent", "find", () => ({ pattern: "*", path: ".." }), "denied"],
  ["find markers", "find", () => ({ pattern: "**/.context-exclude" }), "clean"],
  ["find case variant path", "find", () => ({ pattern: "*", path: "PRIVATE" }), "blocked"],
  ["grep root", "grep", () => ({ pattern: "needle" }), "clean"],
  ["grep token", "grep", () => ({ pattern: EXCLUDED_TOKEN }), "clean"],
  ["grep ignoreCase token", "grep", () => ({ pattern: "excluded_token", ignoreCase: true }), "clean"],
  ["grep excluded dir", "grep", () => ({ pattern: "needle", path: "private" }), "denied"],
  ["grep excluded file", "grep", () => ({ pattern: "needle", path: "private/hidden-a.txt" }), "denied"],
  ["grep glob into excluded", "grep", () => ({ pattern: "needle", glob: "private/**" }), "clean"],
  ["grep glob hidden names", "grep", () => ({ pattern: "needle", glob: "**/hidden-*" }), "clean"],
  ["grep glob outside", "grep", () => ({ pattern: "needle", glob: "../outside/*" }), "clean"],
  ["grep negated glob", "grep", () => ({ pattern: "needle", glob: "!*.ts" }), "clean"],
  ["grep links dir", "grep", () => ({ pattern: "needle", path: "links" }), "clean"],
  ["grep file link", "grep", () => ({ pattern: "needle", path: "links/to-private-file" }), "denied"],
  ["grep outside dir", "grep", () => ({ pattern: "needle", path: "../outside" }), "denied"],
  ["grep link to outside", "grep", () => ({ pattern: OUTSIDE_TOKEN, path: "links/to-outside" }), "denied"],
  ["grep case variant", "grep", () => ({ pattern: "needle", path: "PRIVATE" }), "blocked"],
  ["grep ~ outside", "grep", () => ({ pattern: "needle", path: "~/outside" }), "denied"],
  ["grep literal context", "grep", () => ({ pattern: "needle", literal: true, context: 5 }), "clean"],
  ["write into excluded", "write", put("private/new.txt"), "denied"],
  ["write over excluded file", "write", put("private/hidden-a.txt"), "denied"],
  ["write via dir alias", "write", put("private-alias/new.txt"), "denied"],
  ["write via nested dir link", "write", put("links/to-private/new.txt"), "denied"],
  ["write file link into excluded", "write", put("links/to-private-file"), "denied"],
  ["write dangling link into excluded", "write", put("links/dangling-private"), "denied"],
  ["write dangling link outside", "write", put("links/dangling-out"), "denied"],
  ["write outside", "write", put("../outside/new.txt"), "denied"],
  ["write marker file", "write", put("private/.context-exclude"), "denied"],
  ["write new marker", "write", put("src/.context-exclude"), "denied"],
  ["write root marker", "write", put(".context-exclude"), "denied"],
  ["write .pi settings", "write", put(".pi/settings.json"), "denied"],
  ["write nested .pi", "write", put("src/.pi/agent.json"), "denied"],
  ["write new .pi file", "write", put("@.pi/new.json"), "denied"],
  ["write through allowed link", "write", put("links/to-readme"), "blocked"],
  ["write ~ into excluded", "write", put("~/project/private/x.txt"), "denied"],
  ["write case variant", "write", put("PRIVATE/new.txt"), "blocked"],
  ["write second marker dir", "write", put("docs/internal/new.md"), "denied"],
  ["write kit package", "write", put("vendor/kit/index.js"), "denied"],
  ["edit excluded file", "edit", edit("private/hidden-a.txt"), "denied"],
  ["edit via alias", "edit", edit("private-alias/hidden-a.txt"), "denied"],
  ["edit file link", "edit", edit("links/to-private-file"), "denied"],
  [
    "edit marker",
    "edit",
    () => ({ path: "private/.context-exclude", edits: [{ oldText: "customer", newText: "x" }] }),
    "denied",
  ],
  ["edit .pi", "edit", () => ({ path: ".pi/settings.json", edits: [{ oldText: "{}", newText: "{ }" }] }), "denied"],
  ["edit through allowed link", "edit", edit("links/to-readme"), "blocked"],
  ["edit link to outside", "edit", edit("links/to-outside-file"), "denied"],
  ["edit @ prefix", "edit", edit("@private/hidden-a.txt"), "denied"],
  [
    "edit absolute outside",
    "edit",
    (f) => ({ path: join(f.outside, "outside-secret.txt"), edits: [{ oldText: "needle", newText: "x" }] }),
    "denied",
  ],
];

function textOf(result: ToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : `[image ${c.mimeType}]`)).join("\n");
}

function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir + sep);
}

describe.each([
  ["detected case sensitivity", undefined],
  ["forced case-insensitive folding", true],
] as const)("escape attempts (%s)", (_label, caseInsensitive) => {
  let f: Fixture;
  let protectedDirs: string[];
  beforeAll(() => {
    f = makeFixture();
    if (caseInsensitive) {
      const policy = createPolicy({ root: f.root, home: f.base, protectedDirs: [f.kitDir], caseInsensitive });
      const tools = createGuardedTools({
        policy,
        denials: createMemoryDenialTracker(),
        operations: recording(f.touched),
      });
      f = { ...f, policy, tools };
    }
    const real = realpathSync(f.root);
    protectedDirs = [join(real, "private"), join(real, "docs", "internal"), realpathSync(f.outside)];
  });
  afterAll(() => f.cleanup());

  it("has at least 50 attempts covering every tool", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(50);
    expect(new Set(CASES.map((c) => c[1]))).toEqual(new Set(["read", "ls", "find", "grep", "write", "edit"]));
  });

  it.each(CASES)("%s (%s)", async (_id, tool, params, expected) => {
    const args = params(f);
    const before = snapshot(f.base);
    f.touched.length = 0;
    const result = (await f.tools[tool].execute("call", args as never, undefined, undefined, undefined)) as ToolResult;
    const text = textOf(result);

    expect(text).not.toContain(EXCLUDED_TOKEN);
    expect(text).not.toContain(OUTSIDE_TOKEN);
    for (const name of HIDDEN_NAMES) {
      if (!JSON.stringify(args).includes(name)) expect(text).not.toContain(name);
    }
    if (expected === "denied") {
      expect(isDenial(result.details)).toBe(true);
      expect(result.details).toMatchObject({ blocked: true, retryable: false, code: "CONTEXT_ACCESS_DENIED" });
    } else if (expected === "blocked") {
      expect(resultNeedsErrorFlag(result.details)).toBe(true);
    } else {
      expect(resultNeedsErrorFlag(result.details)).toBe(false);
    }

    for (const { op, path } of f.touched) {
      const real = existsSync(path) ? realpathSync(path) : path;
      for (const dir of protectedDirs) {
        expect(under(path, dir) || under(real, dir), `${op} ${path}`).toBe(false);
      }
    }
    expect(snapshot(f.base)).toEqual(before);
  });
});
