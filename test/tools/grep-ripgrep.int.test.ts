import {
  chmodSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPolicy } from "../../src/policy/index.js";
import { createMemoryDenialTracker } from "../../src/tools/denial-tracker.js";
import { createGuardedTools, type GuardedTools } from "../../src/tools/guarded-tools.js";
import { findRipgrep } from "../../src/tools/ripgrep.js";
import type { ToolResult } from "../../src/tools/tool-types.js";
import { EXCLUDED_TOKEN, makeProject, OUTSIDE_TOKEN } from "../policy/fixture.js";

const rg = findRipgrep();

/** Files the protected search must never open: their access time is set before their modification time. */
const UNREAD = [
  "outside/outside-secret.txt",
  "project/private/hidden-a.txt",
  "project/private/.context-exclude",
  "project/private/hidden-nested/hidden-deep.txt",
  "project/docs/internal/hidden-notes.md",
  "project/docs/internal/.context-exclude",
];

describe.skipIf(rg === null)("guarded grep through ripgrep", () => {
  let f: ReturnType<typeof makeProject>;
  let root: string;
  let calls: string;
  let viaRg: GuardedTools;
  let builtIn: GuardedTools;

  beforeEach(() => {
    f = makeProject();
    root = realpathSync(f.root);
    // A real rg behind a wrapper that writes down each call's arguments.
    calls = join(f.base, "rg-calls.txt");
    const wrapper = join(f.base, "rg-wrapper.sh");
    writeFileSync(
      wrapper,
      `#!/bin/sh\nprintf '%s\\n' "$@" >> '${calls}'\necho ---- >> '${calls}'\nexec '${rg}' "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    const policy = createPolicy({ root: f.root, home: f.base, protectedDirs: [] });
    viaRg = createGuardedTools({ policy, denials: createMemoryDenialTracker(), ripgrep: wrapper });
    builtIn = createGuardedTools({ policy, denials: createMemoryDenialTracker(), ripgrep: null });
    for (const rel of UNREAD) utimesSync(join(f.base, rel), new Date(2001, 0, 1), new Date(2020, 0, 1));
  });
  afterEach(() => f.cleanup());

  const grep = async (tools: GuardedTools, params: Record<string, unknown>) => {
    const r = (await tools.grep.execute("c", params as never, undefined, undefined, undefined)) as ToolResult;
    const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    return { text, body: text.split("\n\n[")[0] ?? "", details: (r.details ?? {}) as Record<string, unknown> };
  };
  const rgCalls = () => {
    try {
      return readFileSync(calls, "utf8").split("----\n").filter(Boolean);
    } catch {
      return [];
    }
  };
  const unreadStill = () => UNREAD.filter((rel) => statSync(join(f.base, rel)).atimeMs < Date.UTC(2010, 0, 1));

  it("finds matches with rg, prunes excluded folders as globs, and never opens them or what links lead to", async () => {
    const r = await grep(viaRg, { pattern: "needle" });
    expect(r.body.split("\n")).toEqual([
      "README.md:2: public readme needle",
      "docs/public.md:1: public docs needle",
      "src/app.ts:1: export const app = 1; // needle",
    ]);
    expect(r.details.pruned).toEqual([join(root, "docs", "internal"), join(root, "private")]);
    // One rg call: the excluded folders come from the marker index, not from a listing by rg.
    const [search, ...more] = rgCalls();
    expect(more).toEqual([]);
    expect(search).not.toContain("--files\n");
    expect(search).toContain("--no-follow\n");
    expect(search).toContain("!/private/\n");
    expect(search).toContain("!/docs/internal/\n");

    for (const params of [
      { pattern: EXCLUDED_TOKEN },
      { pattern: "excluded_token", ignoreCase: true },
      { pattern: "needle", glob: "private/**" },
      { pattern: "needle", glob: "**/hidden-*" },
      { pattern: OUTSIDE_TOKEN, path: "links" },
      { pattern: "needle", literal: true, context: 5 },
    ]) {
      const out = await grep(viaRg, params);
      expect(out.text).not.toContain(EXCLUDED_TOKEN);
      expect(out.text).not.toContain(OUTSIDE_TOKEN);
      expect(out.text).not.toContain("hidden-");
    }
    expect(rgCalls().length).toBe(7);
    expect(unreadStill()).toEqual(UNREAD);
  });

  it("prunes a folder whose marker is a symlink or an empty folder, as the policy's probe sees them", async () => {
    symlinkSync("../README.md", join(f.root, "src", ".context-exclude"));
    mkdirSync(join(f.root, "docs", ".context-exclude"));
    const r = await grep(viaRg, { pattern: "needle" });
    expect(r.body).not.toContain("src/app.ts");
    expect(r.body).not.toContain("docs/public.md");
    expect(r.body).toContain("README.md:2:");
    expect(r.details.pruned).toEqual([join(root, "docs"), join(root, "private"), join(root, "src")]);
    expect(rgCalls()).toHaveLength(1);
    expect(unreadStill()).toEqual(UNREAD);
  });

  it("sees a marker added or removed between two searches of the same tools", async () => {
    expect((await grep(viaRg, { pattern: "needle" })).body).toContain("src/app.ts:1:");
    const search = grep(viaRg, { pattern: "needle" });
    writeFileSync(join(f.root, "src", ".context-exclude"), "");
    const r = await search;
    expect(r.body).not.toContain("src/app.ts");
    expect(r.details.pruned).toContain(join(root, "src"));
    expect(rgCalls().at(-1)).toContain("!/src/\n");
    rmSync(join(f.root, "private", ".context-exclude"));
    expect((await grep(viaRg, { pattern: "needle" })).body).toContain("private/hidden-a.txt:1:");
  });

  it("gives the built-in search's output for the same calls on a tree without links", async () => {
    mkdirSync(join(f.root, "lib", "deep"), { recursive: true });
    writeFileSync(join(f.root, "lib", "a.ts"), "const needle = 1;\nline two\r\nNeedle three\nneedle four\n");
    writeFileSync(join(f.root, "lib", "deep", "b.md"), `${"x".repeat(600)} needle\n`);
    for (const params of [
      { pattern: "needle", path: "lib" },
      { pattern: "needle", path: "lib", ignoreCase: true },
      { pattern: "n[e]+dle", path: "lib", context: 1 },
      { pattern: "needle", path: "lib", limit: 2 },
      { pattern: "needle", path: "lib", glob: "*.md" },
      { pattern: "nothing-here", path: "lib" },
    ]) {
      const [a, b] = [await grep(viaRg, params), await grep(builtIn, params)];
      expect(a.text, JSON.stringify(params)).toBe(b.text);
      expect(a.details).toEqual(b.details);
    }
    expect(rgCalls()).toHaveLength(6);
  });

  it("falls back to the built-in search when rg refuses the pattern", async () => {
    const r = await grep(viaRg, { pattern: "(?<=public )docs" });
    expect(r.body).toBe("docs/public.md:1: public docs needle");
    expect(rgCalls()).toHaveLength(1);
    expect(unreadStill()).toEqual(UNREAD);
  });

  it("skips .git and node_modules by name, without calling them pruned", async () => {
    mkdirSync(join(f.root, "node_modules", "dep"), { recursive: true });
    writeFileSync(join(f.root, "node_modules", "dep", "index.js"), "needle");
    writeFileSync(join(f.root, "node_modules.txt"), "needle");
    const r = await grep(viaRg, { pattern: "needle" });
    expect(r.body).toContain("node_modules.txt:1: needle");
    expect(r.body).not.toContain("dep/index.js");
    expect(r.details.pruned).not.toContain(join(root, "node_modules"));
  });
});
