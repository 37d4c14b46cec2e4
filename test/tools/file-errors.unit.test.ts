import { execFileSync } from "node:child_process";
import { mkdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FileIssueDetails } from "../../reducers/contract/tool-details.js";
import { createPolicy } from "../../src/policy/index.js";
import { createMemoryDenialTracker } from "../../src/tools/denial-tracker.js";
import { nodeToolFileOperations, type ToolFileOperations } from "../../src/tools/file-ops.js";
import { createGuardedTools, type GuardedTools } from "../../src/tools/guarded-tools.js";
import { resultNeedsErrorFlag } from "../../src/tools/issues.js";
import type { GuardedToolsOptions } from "../../src/tools/tool-deps.js";
import type { ToolResult } from "../../src/tools/tool-types.js";
import { makeProject } from "../policy/fixture.js";

let f: ReturnType<typeof makeProject>;
let root: string;
beforeEach(() => {
  f = makeProject();
  root = realpathSync(f.root);
});
afterEach(() => f.cleanup());

function tools(extra: Partial<GuardedToolsOptions> = {}): GuardedTools {
  const policy = createPolicy({ root: f.root, protectedDirs: [] });
  return createGuardedTools({ policy, denials: createMemoryDenialTracker(), ...extra });
}
const read = (t: GuardedTools, params: Record<string, unknown>) =>
  t.read.execute("call", params as never, undefined, undefined, undefined) as Promise<ToolResult>;
const text = (r: ToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

function expectIssue(r: ToolResult, code: string, path: string) {
  expect(r.details).toMatchObject({ code, retryable: false, path });
  expect(resultNeedsErrorFlag(r.details)).toBe(true);
}

const PNG = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(40, 1)]);

describe("read failures", () => {
  it("reports a missing file as FILE_NOT_FOUND", async () => {
    expectIssue(await read(tools(), { path: "src/missing.ts" }), "FILE_NOT_FOUND", join(root, "src", "missing.ts"));
  });

  it("reports a directory as UNSUPPORTED_FILE_TYPE with size and mtime", async () => {
    const r = await read(tools(), { path: "src" });
    expectIssue(r, "UNSUPPORTED_FILE_TYPE", join(root, "src"));
    expect((r.details as FileIssueDetails).mtimeMs).toBe(statSync(join(root, "src")).mtimeMs);
    expect(text(r)).toContain("Use ls");
  });

  it("reports a FIFO without blocking on it", async () => {
    execFileSync("mkfifo", [join(f.root, "src", "pipe")]);
    const r = await read(tools(), { path: "src/pipe" });
    expectIssue(r, "UNSUPPORTED_FILE_TYPE", join(root, "src", "pipe"));
    expect(text(r)).toContain("named pipe");
  });

  it("reports a socket as UNSUPPORTED_FILE_TYPE", async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(join(f.root, "src", "sock"), resolve));
    try {
      const r = await read(tools(), { path: "src/sock" });
      expectIssue(r, "UNSUPPORTED_FILE_TYPE", join(root, "src", "sock"));
      expect(text(r)).toContain("a socket");
    } finally {
      server.close();
    }
  });

  it("reports a character device as UNSUPPORTED_FILE_TYPE (where mknod is permitted)", async (ctx) => {
    try {
      execFileSync("mknod", [join(f.root, "src", "null-dev"), "c", "1", "3"], { stdio: "ignore" });
    } catch {
      ctx.skip();
    }
    const r = await read(tools(), { path: "src/null-dev" });
    expectIssue(r, "UNSUPPORTED_FILE_TYPE", join(root, "src", "null-dev"));
    expect(text(r)).toContain("a character device");
  });

  it("reports binaries as UNSUPPORTED_BINARY without returning header bytes", async () => {
    writeFileSync(
      join(f.root, "src", "app.bin"),
      Buffer.concat([Buffer.from("7f454c46020101", "hex"), Buffer.alloc(64)]),
    );
    writeFileSync(join(f.root, "src", "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0xff, 0xfe]));
    for (const name of ["app.bin", "latin1.txt"]) {
      const r = await read(tools(), { path: `src/${name}` });
      expectIssue(r, "UNSUPPORTED_BINARY", join(root, "src", name));
      expect(r.content).toHaveLength(1);
      expect(text(r)).not.toMatch(/[\u0000\u007f\ufffd]/);
      expect(text(r)).toContain("build and test tools");
    }
  });

  it("refuses oversized files from metadata and the header without loading the body", async () => {
    writeFileSync(join(f.root, "src", "big.txt"), "x".repeat(5000));
    const reads: number[] = [];
    const operations: Partial<ToolFileOperations> = {
      async openRead(path) {
        const handle = await nodeToolFileOperations.openRead(path);
        return {
          stat: () => handle.stat(),
          close: () => handle.close(),
          async read(buffer, offset, length, position) {
            reads.push(length);
            return handle.read(buffer, offset, length, position);
          },
        };
      },
    };
    const r = await read(tools({ operations, limits: { maxTextBytes: 1000, headerBytes: 256 } }), {
      path: "src/big.txt",
    });
    expectIssue(r, "FILE_TOO_LARGE", join(root, "src", "big.txt"));
    expect(r.details).toMatchObject({ size: 5000 });
    expect(Math.max(...reads)).toBeLessThanOrEqual(256);
    expect(text(r)).not.toContain("xxxx");
  });

  it("keeps images supported and bounds their size", async () => {
    writeFileSync(join(f.root, "src", "pic.png"), PNG);
    const ok = await read(tools(), { path: "src/pic.png" });
    expect(ok.content[1]).toEqual({ type: "image", mimeType: "image/png", data: PNG.toString("base64") });
    expect(ok.details).toEqual({ path: join(root, "src", "pic.png") });
    const big = await read(tools({ limits: { maxImageBytes: 16 } }), { path: "src/pic.png" });
    expectIssue(big, "FILE_TOO_LARGE", join(root, "src", "pic.png"));
  });

  it("reports EACCES as READ_ACCESS_DENIED", async () => {
    const eacces = () => Promise.reject(Object.assign(new Error("permission denied"), { code: "EACCES" }));
    const r = await read(tools({ operations: { openRead: eacces } }), { path: "README.md" });
    expectIssue(r, "READ_ACCESS_DENIED", join(root, "README.md"));
    expect(r.details).toMatchObject({ size: statSync(join(root, "README.md")).size });
    const viaStat = await read(tools({ operations: { stat: eacces } }), { path: "README.md" });
    expectIssue(viaStat, "READ_ACCESS_DENIED", join(root, "README.md"));
  });

  it("rejects an offset past the end as invalid input, not retryable", async () => {
    const r = await read(tools(), { path: "README.md", offset: 99 });
    expect(r.details).toMatchObject({ code: "TOOL_INPUT_ERROR", reason: "OFFSET_OUT_OF_RANGE", retryable: false });
    expect(resultNeedsErrorFlag(r.details)).toBe(true);
  });

  it("pages text with offset and limit like the host", async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join("\n");
    writeFileSync(join(f.root, "src", "long.txt"), lines);
    const first = text(await read(tools(), { path: "src/long.txt" }));
    expect(first).toContain("[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]");
    const window = text(await read(tools(), { path: "src/long.txt", offset: 10, limit: 2 }));
    expect(window).toBe("line 10\nline 11\n\n[2489 more lines in file. Use offset=12 to continue.]");
  });
});

describe("other tools on bad targets", () => {
  it("ls and find on a file or a missing path report file issues", async () => {
    const t = tools();
    mkdirSync(join(f.root, "empty"));
    const lsFile = (await t.ls.execute("c", { path: "README.md" }, undefined, undefined, undefined)) as ToolResult;
    expectIssue(lsFile, "UNSUPPORTED_FILE_TYPE", join(root, "README.md"));
    const findMissing = (await t.find.execute(
      "c",
      { pattern: "*", path: "nope" },
      undefined,
      undefined,
      undefined,
    )) as ToolResult;
    expectIssue(findMissing, "FILE_NOT_FOUND", join(root, "nope"));
    const grepBinary = await t.grep.execute(
      "c",
      { pattern: "x", path: "src/missing" },
      undefined,
      undefined,
      undefined,
    );
    expectIssue(grepBinary as ToolResult, "FILE_NOT_FOUND", join(root, "src", "missing"));
    const lsEmpty = (await t.ls.execute("c", { path: "empty" }, undefined, undefined, undefined)) as ToolResult;
    expect(text(lsEmpty)).toBe("(empty directory)");
  });
});

describe("ls listing failures", () => {
  it("reports a missing path as FILE_NOT_FOUND and passes on a directory's listing error", async () => {
    const missing = (await tools().ls.execute("c", { path: "nope" }, undefined, undefined, undefined)) as ToolResult;
    expectIssue(missing, "FILE_NOT_FOUND", join(root, "nope"));
    const eacces = Object.assign(new Error("denied"), { code: "EACCES" });
    const t = tools({ operations: { readdir: () => Promise.reject(eacces) } });
    await expect(t.ls.execute("c", { path: "src" }, undefined, undefined, undefined)).rejects.toBe(eacces);
  });
});

describe("path arguments", () => {
  it.each([
    ["a NUL byte", "src/a\0b"],
    ["an absurd length", "x".repeat(5000)],
    ["thousands of segments", `src/${"y/".repeat(1000)}z`],
  ])("refuses %s as invalid input before touching the file system", async (_label, path) => {
    const t = tools();
    for (const tool of ["read", "ls", "find", "grep", "write", "edit"] as const) {
      const params = { path, pattern: "x", content: "x", edits: [{ oldText: "a", newText: "b" }] };
      const r = (await t[tool].execute("c", params as never, undefined, undefined, undefined)) as ToolResult;
      expect(r.details).toMatchObject({ code: "TOOL_INPUT_ERROR", reason: "INVALID_ARGUMENT", retryable: false });
    }
  });
});
