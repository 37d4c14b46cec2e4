import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { SessionBuilder } from "../../src/synth/session-builder.js";
import { chromiumPresent, launch, openPage, rendered, text, warnIfAbsent } from "./chromium.js";

const SAMPLE = join(import.meta.dirname, "../../evidence-samples/branched-school-session.jsonl");
const CHINESE = "我来检查一下编译错误。请描述学校模型的业务场景";
warnIfAbsent("report-audit-ux.e2e");

/** A Pi session that never ran the kit: one successful write, no app_build/app_test result. */
function plainSession(): string {
  const b = new SessionBuilder({ sessionId: "plain-0001" });
  b.user("write the notes file");
  b.toolRound("write", { path: "notes.md", content: "x" }, "wrote notes.md");
  b.assistant("Done.");
  return b.toJsonl();
}

/** A session whose third line is broken, cutting the two entries after it off from the root. */
function damagedSession(): string {
  const b = new SessionBuilder();
  b.user("first request");
  b.assistant("this line gets damaged");
  b.user("after the damage");
  b.assistant("end of the orphaned branch");
  const lines = b.toJsonl().split("\n");
  lines[2] = lines[2]?.replace('"content":[', '"content":[,') as string;
  return lines.join("\n");
}

function chineseSession(): string {
  const b = new SessionBuilder({ sessionId: "zh-0001" });
  b.user("请描述学校模型的业务场景。");
  b.assistant(CHINESE);
  return b.toJsonl();
}

describe.skipIf(!chromiumPresent)("auditing with the report in headless Chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "report-ux-"));
  let context: BrowserContext;

  beforeAll(async () => {
    writeFileSync(join(dir, "plain.jsonl"), plainSession());
    writeFileSync(join(dir, "damaged.jsonl"), damagedSession());
    writeFileSync(join(dir, "zh.jsonl"), chineseSession());
    for (const name of ["plain", "damaged", "zh"]) {
      const out = await runCli(["report", `${name}.jsonl`, "--out", `${name}.html`], { cwd: dir });
      expect(out.exitCode, out.stderr).toBe(0);
    }
    expect((await runCli(["report", SAMPLE, "--out", "branched.html"], { cwd: dir })).exitCode).toBe(0);
    context = await launch(dir);
  });

  afterAll(async () => {
    await context?.close();
  });

  it("opens the entry's whole record with a click and with Enter", async () => {
    const { page, errors } = await openPage(context, join(dir, "branched.html"));
    const details = page.locator("#entry-record");
    expect(await details.evaluate((d) => d.hasAttribute("open"))).toBe(false);
    await page.click("#entry-record summary");
    expect(await details.evaluate((d) => d.hasAttribute("open"))).toBe(true);
    expect(await rendered(page.locator("#entry-record pre"))).toContain('"id": "0000706a"');
    await page.click("#entry-record summary");
    expect(await details.evaluate((d) => d.hasAttribute("open"))).toBe(false);
    await page.focus("#entry-record summary");
    await page.keyboard.press("Enter");
    expect(await details.evaluate((d) => d.hasAttribute("open"))).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("says that no checks were recorded on a session that never ran them, and what the revision counts", async () => {
    const { page } = await openPage(context, join(dir, "plain.html"));
    const chip = page.locator("#summary .chip", { hasText: "verification" });
    expect(await rendered(chip)).toMatch(/^verification\s+no checks recorded \(r1: 1 file change\)$/);
    expect(await chip.getAttribute("class")).toBe("chip");
    expect(await chip.getAttribute("title")).toContain("rN: the active branch changed files N times");
    expect(await text(page, "#state-at-entry")).toMatch(/revision\s+r1 \(1 file change on this branch\)/);
    await page.close();
  });

  it("counts and words the entries a lost line cuts off as the diagnostic does", async () => {
    const { page } = await openPage(context, join(dir, "damaged.html"));
    await page.click("#tab-btn-diagnostics");
    const diagnostic = await rendered(page.locator("#tab-diagnostics .diag").first());
    expect(diagnostic).toContain("2 entries lose their path to the root (leaf ");
    expect(diagnostic).toMatch(/2 entries lose their path to the root; branches: \w+/);
    expect(diagnostic).not.toContain("orphans");
    await page.close();
  });

  it("shows the session's numbers and diagnostics with no script at all", async () => {
    const noScript = await launch(dir, { javaScriptEnabled: false });
    try {
      const page = await noScript.newPage();
      await page.goto(pathToFileURL(join(dir, "damaged.html")).href);
      const summary = await text(page, "#static-summary");
      expect(summary).toMatch(/entries\s+3/);
      expect(summary).toMatch(/branches\s+2/);
      expect(summary).toMatch(/stall stops\s+0 \(0 stalled leaves\)/);
      expect(summary).toMatch(/denials\s+0 in 0 scopes/);
      expect(summary).toMatch(/diagnostics\s+2/);
      expect(summary).toMatch(/E_JSON[\s\S]*line 3/);
      expect(await text(page, "#summary")).toMatch(/3\s+entries/);
      expect(await page.getAttribute("html", "data-ready")).toBeNull();
    } finally {
      await noScript.close();
    }
  });

  it("shows the index's diagnostics column whole at 1400 px, whatever the file names", async () => {
    const folder = join(dir, "a-folder-of-sessions-with-rather-long-names");
    mkdirSync(folder);
    const long = "ReinforcementSleeping__openclaw-backup__agents__main__sessions__6c055c8f-48f5-4af4-8323-b6d583e233fb";
    writeFileSync(join(folder, `${long}.jsonl`), damagedSession());
    writeFileSync(join(folder, `${long}-2.jsonl`), plainSession());
    writeFileSync(join(folder, `${long.replaceAll("_", "-")}.jsonl`), damagedSession());
    const out = await runCli(["report", folder, "--out", "index-out"], { cwd: dir });
    expect(out.exitCode).toBe(0);
    const narrow = await launch(dir, { width: 1400 });
    try {
      const page = await narrow.newPage();
      await page.goto(pathToFileURL(join(dir, "index-out/index.html")).href);
      const fits = await page.evaluate(`(() => {
        const width = document.documentElement.clientWidth;
        const cells = [...document.querySelectorAll("#sessions tr > :last-child")];
        return { width, page: document.documentElement.scrollWidth,
          cells: cells.map((c) => {
            const range = document.createRange();
            range.selectNodeContents(c);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
            return { right: c.getBoundingClientRect().right, over: c.scrollWidth - c.clientWidth, lines, text: c.innerText };
          }) };
      })()`);
      const {
        width,
        page: scroll,
        cells,
      } = fits as {
        width: number;
        page: number;
        cells: { right: number; over: number; lines: number; text: string }[];
      };
      expect(width).toBe(1400);
      expect(scroll).toBeLessThanOrEqual(width);
      expect(cells.map((c) => c.text).sort()).toEqual([
        "2 errors, 0 warnings",
        "2 errors, 0 warnings",
        "diagnostics",
        "none",
      ]);
      for (const cell of cells) {
        expect(cell.right).toBeLessThanOrEqual(width);
        expect(cell.over).toBeLessThanOrEqual(0);
        expect(cell.lines, cell.text).toBe(1);
      }
    } finally {
      await narrow.close();
    }
  });

  it("renders Chinese text with real glyphs, not empty boxes", async () => {
    const { page, errors } = await openPage(context, join(dir, "zh.html"));
    expect(await text(page, "#entry-card .pvfull")).toBe(CHINESE);
    const family = await page.evaluate("getComputedStyle(document.body).fontFamily");
    for (const font of ["PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC"]) expect(family).toContain(font);
    // Each character drawn alone in the page's font: with no CJK font every one is the same .notdef box.
    const chars = [...new Set(CHINESE.replace(/[。，]/g, ""))].slice(0, 6);
    await page.evaluate(`(() => {
      const host = document.querySelector("#entry-card .pvfull");
      ${JSON.stringify(chars)}.forEach((c, i) => {
        const span = document.createElement("span");
        span.id = "glyph-" + i;
        span.textContent = c;
        span.style.cssText = "display:inline-block;font-size:32px;line-height:40px;padding:2px;background:#fff;color:#000";
        host.appendChild(span);
      });
    })()`);
    const shots = await Promise.all(chars.map((_, i) => page.locator(`#glyph-${i}`).screenshot()));
    const distinct = new Set(shots.map((shot) => shot.toString("base64")));
    expect(distinct.size).toBe(chars.length);
    const widths = (await page.evaluate(
      `${JSON.stringify(chars)}.map((_, i) => document.getElementById("glyph-" + i).getBoundingClientRect().width)`,
    )) as number[];
    for (const w of widths) expect(w).toBeGreaterThan(30);
    expect(errors).toEqual([]);
    await page.close();
  });
});
