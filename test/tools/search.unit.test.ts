import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPolicy } from "../../src/policy/index.js";
import { createMemoryDenialTracker } from "../../src/tools/denial-tracker.js";
import { findMatcher, globToRegExp, grepGlobMatcher } from "../../src/tools/glob.js";
import { createGuardedTools, type GuardedTools } from "../../src/tools/guarded-tools.js";
import type { ToolResult } from "../../src/tools/tool-types.js";
import { makeProject } from "../policy/fixture.js";

describe("globs", () => {
  it.each([
    ["*.ts", "a.ts", true],
    ["*.ts", "dir/a.ts", false],
    ["**/*.ts", "a.ts", true],
    ["**/*.ts", "x/y/a.ts", true],
    ["src/**", "src/a/b", true],
    ["a?c", "abc", true],
    ["[!a]bc", "abc", false],
    ["{README,AGENTS}.md", "AGENTS.md", true],
    ["a.{ts,tsx}", "a.js", false],
    ["\\*.ts", "*.ts", true],
    ["(x).ts", "(x).ts", true],
  ])("%s matches %s: %s", (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });

  it("find: names without a slash, absolute paths with one", () => {
    expect(findMatcher("*.ts")("/r/src/a.ts", "a.ts", "src/a.ts")).toBe(true);
    expect(findMatcher("src/*.ts")("/r/src/a.ts", "a.ts", "src/a.ts")).toBe(true);
    expect(findMatcher("src/*.ts")("/r/lib/a.ts", "a.ts", "lib/a.ts")).toBe(false);
    expect(findMatcher("src/*.ts")("/r/pkg/src/a.ts", "a.ts", "pkg/src/a.ts")).toBe(true);
  });

  it("find on Pi 1.6: a pattern with a slash is relative to the search directory", () => {
    const relative = (pattern: string, rel: string) =>
      findMatcher(pattern, "relative")(`/r/${rel}`, rel.split("/").at(-1) as string, rel);
    expect(relative("src/*.ts", "src/a.ts")).toBe(true);
    expect(relative("src/*.ts", "pkg/src/a.ts")).toBe(false);
    expect(relative("**/src/*.ts", "pkg/src/a.ts")).toBe(true);
    expect(relative("./src/*.ts", "src/a.ts")).toBe(true);
    expect(relative("*.ts", "pkg/src/a.ts")).toBe(true);
  });

  it("grep: names without a slash, relative paths with one, ! negates", () => {
    expect(grepGlobMatcher("*.ts")("deep/a.ts", "a.ts")).toBe(true);
    expect(grepGlobMatcher("src/*.ts")("src/a.ts", "a.ts")).toBe(true);
    expect(grepGlobMatcher("src/*.ts")("lib/src/a.ts", "a.ts")).toBe(false);
    expect(grepGlobMatcher("!*.ts")("a.ts", "a.ts")).toBe(false);
    expect(grepGlobMatcher(undefined)("anything", "anything")).toBe(true);
  });
});

describe("search tools", () => {
  let f: ReturnType<typeof makeProject>;
  let root: string;
  let t: GuardedTools;
  beforeEach(() => {
    f = makeProject();
    root = realpathSync(f.root);
    t = createGuardedTools({
      policy: createPolicy({ root: f.root, protectedDirs: [] }),
      denials: createMemoryDenialTracker(),
    });
  });
  afterEach(() => f.cleanup());
  const run = async (tool: "grep" | "find" | "ls", params: Record<string, unknown>) => {
    const r = (await t[tool].execute("c", params as never, undefined, undefined, undefined)) as ToolResult;
    const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    return { text, body: text.split("\n\n[")[0], details: r.details as Record<string, unknown> };
  };

  it("grep reports matches with paths and line numbers, honouring glob, case and literal", async () => {
    expect((await run("grep", { pattern: "needle", glob: "*.ts" })).body).toBe(
      "src/app.ts:1: export const app = 1; // needle",
    );
    expect((await run("grep", { pattern: "NEEDLE", ignoreCase: true, path: "docs" })).text).toMatch(
      /^public\.md:1: public docs needle/,
    );
    writeFileSync(join(f.root, "src", "re.txt"), "a.b\naxb\n");
    expect((await run("grep", { pattern: "a.b", literal: true, path: "src/re.txt" })).text).toBe("re.txt:1: a.b");
    expect((await run("grep", { pattern: "a.b", path: "src/re.txt" })).text).toBe("re.txt:1: a.b\nre.txt:2: axb");
  });

  it("grep stops at the match limit and rejects invalid patterns", async () => {
    writeFileSync(join(f.root, "src", "many.txt"), "hit\n".repeat(10));
    const limited = await run("grep", { pattern: "hit", path: "src", limit: 3 });
    expect(limited.text.split("\n").filter((l) => l.startsWith("many.txt:"))).toHaveLength(3);
    expect(limited.details.matchLimitReached).toBe(3);
    expect((await run("grep", { pattern: "(" })).details).toMatchObject({
      code: "TOOL_INPUT_ERROR",
      reason: "INVALID_PATTERN",
    });
  });

  it("find lists files and directories relative to the search path", async () => {
    expect((await run("find", { pattern: "*.ts", path: "src" })).text).toBe("app.ts\nutil.ts");
    expect((await run("find", { pattern: "src/*.ts" })).body).toBe("src/app.ts\nsrc/util.ts");
    expect((await run("find", { pattern: "nothing-*" })).text).toMatch(/^No files found matching pattern/);
    expect((await run("find", { pattern: "*", limit: 2 })).details.resultLimitReached).toBe(2);
  });

  it("skips .git and node_modules while walking, without calling them pruned", async () => {
    mkdirSync(join(f.root, "node_modules", "dep"), { recursive: true });
    writeFileSync(join(f.root, "node_modules", "dep", "index.js"), "needle");
    const r = await run("grep", { pattern: "needle" });
    expect(r.text).not.toContain("node_modules");
    expect(r.details.pruned).not.toContain(join(root, "node_modules"));
  });

  it("prunes a marker found during the walk and reports it in details", async () => {
    writeFileSync(join(f.root, "src", ".context-exclude"), "");
    const r = await run("find", { pattern: "*.ts" });
    expect(r.text).not.toContain("app.ts");
    expect(r.details.pruned).toEqual(expect.arrayContaining([join(root, "src"), join(root, "private")]));
    expect(r.text).toContain("Skipped");
  });

  it("ls marks excluded children and sorts like the host", async () => {
    const r = await run("ls", {});
    expect(r.text.split("\n")).toEqual([
      ".pi/",
      "AGENTS.md",
      "docs/",
      "links/",
      "private/ (excluded by host policy; not listed)",
      "private-alias (symlink blocked by host policy)",
      "README.md",
      "src/",
      "vendor/",
    ]);
    expect(r.details).toEqual({ path: root, pruned: [join(root, "private"), join(root, "private-alias")] });
  });
});
