import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPolicy } from "../../src/policy/index.js";
import { createMemoryDenialTracker } from "../../src/tools/denial-tracker.js";
import { applyEdits } from "../../src/tools/edit-apply.js";
import { createGuardedTools, type GuardedTools } from "../../src/tools/guarded-tools.js";
import { resultNeedsErrorFlag } from "../../src/tools/issues.js";
import type { ToolResult } from "../../src/tools/tool-types.js";
import { makeProject } from "../policy/fixture.js";

let f: ReturnType<typeof makeProject>;
let root: string;
let queued: string[];
let t: GuardedTools;
beforeEach(() => {
  f = makeProject();
  root = realpathSync(f.root);
  queued = [];
  const policy = createPolicy({ root: f.root, protectedDirs: [] });
  t = createGuardedTools({
    policy,
    denials: createMemoryDenialTracker(),
    withMutationQueue: (path, fn) => {
      queued.push(path);
      return fn();
    },
  });
});
afterEach(() => f.cleanup());

const file = (rel: string) => join(f.root, rel);
const text = (r: ToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
const edit = (path: string, edits: { oldText: string; newText: string }[]) =>
  t.edit.execute("c", { path, edits }, undefined, undefined, undefined) as Promise<ToolResult>;
const write = (path: string, content: string) =>
  t.write.execute("c", { path, content }, undefined, undefined, undefined) as Promise<ToolResult>;

describe("applyEdits", () => {
  it("applies disjoint unique edits against the original text", () => {
    expect(
      applyEdits("a b c", [
        { oldText: "c", newText: "a" },
        { oldText: "a", newText: "c" },
      ]),
    ).toEqual({ ok: true, content: "c b a" });
  });
  it("counts overlapping self-occurrences as not unique", () => {
    expect(applyEdits("aaa", [{ oldText: "aa", newText: "b" }])).toMatchObject({
      ok: false,
      reason: "EDIT_NOT_UNIQUE",
      occurrences: 2,
    });
  });
  it("rejects overlapping edits, empty oldText, missing text, no change and an empty list", () => {
    expect(
      applyEdits("abcdef", [
        { oldText: "abc", newText: "x" },
        { oldText: "cde", newText: "y" },
      ]),
    ).toMatchObject({ reason: "EDIT_OVERLAP", index: 1, other: 0 });
    expect(applyEdits("abc", [{ oldText: "", newText: "x" }])).toMatchObject({ reason: "EDIT_EMPTY", index: 0 });
    expect(applyEdits("abc", [{ oldText: "z", newText: "x" }])).toMatchObject({ reason: "EDIT_NOT_FOUND", index: 0 });
    expect(applyEdits("abc", [{ oldText: "b", newText: "b" }])).toMatchObject({ reason: "EDIT_NO_CHANGE" });
    expect(applyEdits("abc", [])).toMatchObject({ reason: "EDIT_EMPTY" });
  });
  it("allows adjacent edits", () => {
    expect(
      applyEdits("abcd", [
        { oldText: "ab", newText: "1" },
        { oldText: "cd", newText: "2" },
      ]),
    ).toEqual({ ok: true, content: "12" });
  });
});

describe("edit tool", () => {
  it("applies several edits together and returns no preview or diff", async () => {
    writeFileSync(file("src/app.ts"), "const alpha = 1;\nconst beta = 2;\n");
    const r = await edit("src/app.ts", [
      { oldText: "alpha = 1", newText: "alpha = 10" },
      { oldText: "beta = 2", newText: "beta = 20" },
    ]);
    expect(readFileSync(file("src/app.ts"), "utf8")).toBe("const alpha = 10;\nconst beta = 20;\n");
    expect(r.details).toEqual({ path: join(root, "src", "app.ts"), mutated: true });
    expect(text(r)).toBe("Successfully replaced 2 block(s) in src/app.ts.");
    expect(queued).toEqual([join(root, "src", "app.ts")]);
  });

  it.each([
    [
      "not found",
      [
        { oldText: "const ok", newText: "x" },
        { oldText: "missing", newText: "y" },
      ],
      "EDIT_NOT_FOUND",
    ],
    ["not unique", [{ oldText: "const", newText: "let" }], "EDIT_NOT_UNIQUE"],
    [
      "overlapping",
      [
        { oldText: "ok = 1", newText: "x" },
        { oldText: "1;", newText: "2;" },
      ],
      "EDIT_OVERLAP",
    ],
    ["no change", [{ oldText: "ok", newText: "ok" }], "EDIT_NO_CHANGE"],
  ])("given %s edits, then nothing is applied", async (_label, edits, reason) => {
    const before = "const ok = 1;\nconst other = 2;\n";
    writeFileSync(file("src/app.ts"), before);
    const r = await edit("src/app.ts", edits);
    expect(r.details).toMatchObject({ code: "TOOL_INPUT_ERROR", reason, retryable: false });
    expect(resultNeedsErrorFlag(r.details)).toBe(true);
    expect(readFileSync(file("src/app.ts"), "utf8")).toBe(before);
  });

  it("keeps CRLF line endings and a BOM", async () => {
    writeFileSync(file("src/win.txt"), "\uFEFFone\r\ntwo\r\nthree\r\n");
    await edit("src/win.txt", [{ oldText: "one\ntwo", newText: "1\n2" }]);
    expect(readFileSync(file("src/win.txt"), "utf8")).toBe("\uFEFF1\r\n2\r\nthree\r\n");
  });

  it("refuses binary files, missing files and symlinks", async () => {
    writeFileSync(file("src/blob.bin"), Buffer.from([0, 1, 2, 3]));
    expect((await edit("src/blob.bin", [{ oldText: "a", newText: "b" }])).details).toMatchObject({
      code: "UNSUPPORTED_BINARY",
    });
    expect((await edit("src/none.ts", [{ oldText: "a", newText: "b" }])).details).toMatchObject({
      code: "FILE_NOT_FOUND",
    });
    const viaLink = await edit("links/to-readme", [{ oldText: "readme", newText: "README" }]);
    expect(viaLink.details).toMatchObject({ reason: "SYMLINK_MUTATION" });
    expect(readFileSync(file("README.md"), "utf8")).toContain("public readme");
  });
});

describe("write tool", () => {
  it("creates and overwrites files in existing directories", async () => {
    const r = await write("src/new.ts", "export {};\n");
    expect(readFileSync(file("src/new.ts"), "utf8")).toBe("export {};\n");
    expect(r.details).toEqual({ path: join(root, "src", "new.ts"), mutated: true });
    expect(text(r)).toBe("Successfully wrote 11 bytes to src/new.ts");
    await write("src/new.ts", "2");
    expect(readFileSync(file("src/new.ts"), "utf8")).toBe("2");
  });

  it("requires the parent directory to exist", async () => {
    const r = await write("src/deep/er/new.ts", "x");
    expect(r.details).toMatchObject({ code: "TOOL_INPUT_ERROR", reason: "PARENT_NOT_FOUND" });
    expect(existsSync(file("src/deep"))).toBe(false);
  });

  it("refuses writing through a symlinked file or directory", async () => {
    mkdirSync(file("real"));
    symlinkSync("real", file("real-link"));
    expect((await write("real-link/x.txt", "x")).details).toMatchObject({ reason: "SYMLINK_MUTATION" });
    expect(existsSync(file("real/x.txt"))).toBe(false);
    expect((await write("links/to-readme", "x")).details).toMatchObject({ reason: "SYMLINK_MUTATION" });
    symlinkSync("missing-target.txt", file("src/dangling"));
    expect((await write("src/dangling", "x")).details).toMatchObject({ reason: "SYMLINK_MUTATION" });
    expect(existsSync(file("src/missing-target.txt"))).toBe(false);
  });

  it("refuses a directory target as UNSUPPORTED_FILE_TYPE", async () => {
    expect((await write("src", "x")).details).toMatchObject({ code: "UNSUPPORTED_FILE_TYPE", path: join(root, "src") });
  });
});
