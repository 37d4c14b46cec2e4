import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { pageNames } from "../../src/cli/commands/report.js";
import { runCli } from "../../src/cli/run.js";

const SAMPLES = join(import.meta.dirname, "../../evidence-samples");
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "report-cmd-"));
  mkdirSync(join(dir, "sessions", "--home-user-p--"), { recursive: true });
  copyFileSync(join(SAMPLES, "branched-school-session.jsonl"), join(dir, "sessions", "--home-user-p--", "a.jsonl"));
  copyFileSync(join(SAMPLES, "denials-session.jsonl"), join(dir, "sessions", "b.jsonl"));
});

describe("context-kit report", () => {
  it("writes one page for a file and says what it holds", async () => {
    const before = readFileSync(join(dir, "sessions", "b.jsonl"));
    const out = await runCli(["report", "sessions/b.jsonl", "--out", "out/b.html", "--json"], { cwd: dir });
    expect(out.exitCode).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result).toMatchObject({
      out: join(dir, "out", "b.html"),
      index: null,
      pages: [{ file: "sessions/b.jsonl", summary: { entries: 16, branches: 2, denials: 3, deniedScopes: 2 } }],
    });
    const html = readFileSync(join(dir, "out", "b.html"), "utf8");
    expect(result.pages[0].bytes).toBe(Buffer.byteLength(html));
    expect(html).toMatch(/^<!doctype html>/);
    expect(readFileSync(join(dir, "sessions", "b.jsonl"))).toEqual(before);
    const text = await runCli(["report", "sessions/b.jsonl", "--out", "out"], { cwd: dir });
    expect(text.stdout).toMatch(
      /^sessions\/b\.jsonl -> out\/b\.html \(\d+ KiB\): 16 entries · 2 branches · .* 3 denials in 2 scopes/,
    );
  });

  it("writes a page per session and an index for a folder", async () => {
    const out = await runCli(["report", "sessions", "--out", "site", "--json"], { cwd: dir });
    expect(out.exitCode).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result.index).toBe(join(dir, "site", "index.html"));
    expect(result.pages.map((p: { page: string }) => p.page)).toEqual([
      join(dir, "site", "sessions", "--home-user-p--__a.html"),
      join(dir, "site", "sessions", "b.html"),
    ]);
    const index = readFileSync(result.index, "utf8");
    expect(index).toContain('href="sessions/--home-user-p--__a.html"');
    expect(index).toContain('href="sessions/b.html"');
    for (const page of result.pages) {
      expect(existsSync(page.page)).toBe(true);
      expect(readFileSync(page.page, "utf8")).toContain('<a href="../index.html">← all sessions</a>');
    }
  });

  it("refuses bad usage: no --out, two inputs, or a session file as the output", async () => {
    const before = readFileSync(join(dir, "sessions", "b.jsonl"));
    for (const args of [
      ["report", "sessions/b.jsonl"],
      ["report", "sessions/b.jsonl", "sessions/b.jsonl", "--out", "x.html"],
      ["report", "sessions/b.jsonl", "--out", "sessions/b.jsonl"],
      ["report", "sessions/b.jsonl", "--out", "copy.jsonl"],
    ]) {
      const out = await runCli(args, { cwd: dir });
      expect(out.exitCode, args.join(" ")).toBe(2);
      expect(out.stderr).toMatch(/E_USAGE/);
    }
    expect(readFileSync(join(dir, "sessions", "b.jsonl"))).toEqual(before);
    expect(existsSync(join(dir, "copy.jsonl"))).toBe(false);
  });

  it("reports unreadable input with exit code 2, and still shows an unusable file's diagnostics", async () => {
    const missing = await runCli(["report", "nope.jsonl", "--out", "x.html", "--json"], { cwd: dir });
    expect(missing.exitCode).toBe(2);
    expect(JSON.parse(missing.stdout).error.code).toBe("E_READ");
    writeFileSync(join(dir, "broken.jsonl"), '{"type":"message"}\n');
    const broken = await runCli(["report", "broken.jsonl", "--out", "broken.html", "--json"], { cwd: dir });
    expect(broken.exitCode).toBe(2);
    expect(JSON.parse(broken.stdout).pages[0].summary.unusable).toBe(true);
    expect(readFileSync(join(dir, "broken.html"), "utf8")).toContain("not usable by the host");
  });

  it("names pages after the session's path below the folder, uniquely", () => {
    expect(pageNames(["/s/a/x.jsonl", "/s/a__x.jsonl", "/s/A__X.jsonl", "/s/b c?.jsonl"], "/s")).toEqual([
      "a__x.html",
      "a__x-2.html",
      "A__X-3.html",
      "b_c_.html",
    ]);
  });
});
