import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { kitRecordOf } from "../../src/fold/kit-records.js";
import { loadSession } from "../../src/session.js";
import { writeLargeSession } from "../synth/large-session.js";
import { SessionBuilder } from "../synth/session-builder.js";
import { chromiumPresent, launch, openPage, rendered, text, until, warnIfAbsent } from "./chromium.js";

const SAMPLE = join(import.meta.dirname, "../../evidence-samples/branched-school-session.jsonl");
warnIfAbsent("report.e2e");

describe.skipIf(!chromiumPresent)("the report page in headless Chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "report-e2e-"));
  const requests: string[] = [];
  let context: BrowserContext;
  const session = loadSession(SAMPLE);
  const activePath = session.tree.pathTo(session.tree.activeLeafId as string);
  const indexOf = (id: string) => [...session.tree.byId.keys()].indexOf(id);

  beforeAll(async () => {
    const sample = await runCli(["report", SAMPLE, "--out", join(dir, "branched.html")], { cwd: dir });
    expect(sample.exitCode).toBe(0);
    const b = new SessionBuilder();
    b.user("first request");
    b.assistant("this line gets damaged");
    b.user("after the damage");
    b.assistant("end of the orphaned branch");
    const lines = b.toJsonl().split("\n");
    lines[2] = lines[2]?.replace('"content":[', '"content":[,') as string;
    writeFileSync(join(dir, "damaged.jsonl"), lines.join("\n"));
    await runCli(["report", "damaged.jsonl", "--out", "damaged.html"], { cwd: dir });
    context = await launch(dir);
    context.on("request", (request) => requests.push(request.url()));
  });

  afterAll(async () => {
    await context?.close();
  });

  const open = (file: string, hash = "") => openPage(context, join(dir, file), hash);

  it("loads the evidence sample with no console error and fetches nothing", async () => {
    const { page, errors } = await open("branched.html");
    expect(await text(page, "#summary")).toMatch(/2\s+branches/);
    expect(await page.locator(".node").count()).toBe(2);
    expect(await text(page, ".node.sel")).toContain("★");
    expect(await text(page, "#branch-head")).toContain("0000706a");
    expect(await text(page, "#entry-card")).toContain("0000706a");
    expect(await text(page, "#view-head")).toMatch(/recovery view from marker\s+00007067/);
    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith("file://"))).toEqual([]);
    await page.close();
  });

  it("shows a branch's state when the branch is clicked", async () => {
    const { page, errors } = await open("branched.html");
    await page.locator(".node", { hasText: "00007065" }).click();
    expect(await text(page, "#branch-head")).toContain("00007065");
    expect(await text(page, "#entry-card")).toContain("00007065");
    const state = await text(page, "#state-at-entry");
    expect(state).toMatch(/anchor\s+00007060/);
    expect(state).toMatch(/recoveries\s+0 in this request/);
    expect(await page.evaluate("location.hash")).toBe("#leafId=00007065&entryId=00007065");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("selects the entry a deep link names, on the right branch", async () => {
    const { page } = await open("branched.html", "#entryId=0000702c");
    expect(await text(page, "#entry-card")).toContain("0000702c");
    const selected = page.locator("#branch-list .row.sel");
    expect(await selected.getAttribute("data-entry")).toBe(String(indexOf("0000702c")));
    expect(await selected.isVisible()).toBe(true);
    expect(await text(page, "#branch-head")).toContain("0000706a");

    await page.evaluate('location.hash = "#entryId=00007062"');
    await until(page, 'document.querySelector("#entry-card").textContent.includes("00007062")');
    expect(await text(page, "#branch-head")).toContain("00007065");

    await page.evaluate('location.hash = "#leafId=00007065&entryId=nope"');
    await until(page, 'document.querySelector("#notice").textContent.includes("No entry nope")');
    expect(await text(page, "#branch-head")).toContain("00007065");
    await page.close();
  });

  /** A page expression: the branch list has rows, all of this class. */
  const onlyRows = (cls: string) =>
    `(() => { const rows = [...document.querySelectorAll("#branch-list .row")]; return rows.length > 0 && rows.every((r) => r.classList.contains("${cls}")); })()`;

  it("filters the branch to user messages or kit events", async () => {
    const { page } = await open("branched.html");
    const users = activePath.filter((e) => e.type === "message" && e.message.role === "user").length;
    const kit = activePath.filter((e) => kitRecordOf(e) !== null).length;
    await page.click("[data-filter=user]");
    expect(await text(page, "#branch-head")).toContain(`${users} shown (user messages)`);
    // The list is drawn in a frame after the head: wait until it holds only rows of the filter's kind.
    await until(page, onlyRows("k-user"));
    const userRows = await page.locator("#branch-list .row").evaluateAll((rows) => rows.map((r) => r.className));
    expect(userRows.length).toBeGreaterThan(0);
    for (const cls of userRows) expect(cls).toContain("k-user");
    await page.click("[data-filter=kit]");
    expect(await text(page, "#branch-head")).toContain(`${kit} shown (kit events)`);
    if (kit > 0) await until(page, onlyRows("k-kit"));
    const kitRows = await page.locator("#branch-list .row").evaluateAll((rows) => rows.map((r) => r.className));
    expect(kitRows).toHaveLength(kit);
    for (const cls of kitRows) expect(cls).toContain("k-kit");
    await page.click("[data-filter=all]");
    expect(await text(page, "#branch-head")).not.toContain("shown");
    await page.close();
  });

  it("puts two branches' states side by side", async () => {
    const { page } = await open("branched.html");
    await page.click("#tab-btn-compare");
    await page.selectOption("#compare-a", String(indexOf("00007065")));
    await page.selectOption("#compare-b", String(indexOf("0000706a")));
    const row = page.locator("#compare-table tr", { hasText: "recovery anchor" });
    expect(await row.getAttribute("class")).toBe("diff");
    expect(await rendered(row)).toMatch(/00007060\s+00007067/);
    expect(await text(page, "#tab-compare")).toMatch(/share\s+0000705f/);
    await page.close();
  });

  it("shows what the reader drops and the branch it orphans", async () => {
    const { page, errors } = await open("damaged.html");
    await page.locator(".node", { hasText: "00001000" }).click();
    expect(await text(page, "#branch-head")).toContain("00001000");
    expect(await text(page, "#tab-btn-diagnostics")).toBe("Diagnostics (2)");
    await page.click("#tab-btn-diagnostics");
    const diagnostics = page.locator("#tab-diagnostics .diag");
    expect(await diagnostics.count()).toBe(2);
    expect(await rendered(diagnostics.first())).toMatch(/E_JSON[\s\S]*line 3[\s\S]*branches:/);
    await diagnostics.first().locator("a[data-leaf]").click();
    expect(await text(page, "#branch-head")).toContain("00001003");
    expect(await text(page, ".node.sel")).toContain("orphaned");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("takes a screenshot", async () => {
    const { page } = await open("branched.html", "#leafId=0000706a&entryId=00007067");
    const shot = join(dir, "branched.png");
    await page.screenshot({ path: shot });
    console.log(`report.e2e: screenshot ${shot}`);
    expect(statSync(shot).size).toBeGreaterThan(20_000);
    await page.close();
  });

  it("opens a 100k-entry session", { timeout: 300_000 }, async () => {
    const file = join(dir, "large.jsonl");
    writeLargeSession(file, { entries: 100_000, leaves: 200 });
    const started = Date.now();
    const out = await runCli(["report", file, "--out", join(dir, "large.html"), "--json"], { cwd: dir });
    const built = Date.now() - started;
    expect(out.exitCode).toBe(0);
    const { summary, bytes } = JSON.parse(out.stdout).pages[0];
    expect(summary.entries).toBeGreaterThanOrEqual(100_000);
    const opened = Date.now();
    const { page, errors } = await open("large.html");
    const loaded = Date.now() - opened;
    const timing = await page.evaluate("window.reportTiming");
    console.log(
      `report.e2e: ${summary.entries} entries, ${(statSync(file).size / 1e6).toFixed(1)} MB session -> ` +
        `${(bytes / 1e6).toFixed(2)} MB page, built in ${(built / 1000).toFixed(1)} s, ` +
        `opened in ${(loaded / 1000).toFixed(1)} s (${JSON.stringify(timing)})`,
    );
    expect(statSync(join(dir, "large.html")).size).toBe(bytes);
    await page.locator("#branch-list").evaluate((list) => {
      list.scrollTop = 0;
    });
    await until(page, 'document.querySelector("#branch-list .row .ln").textContent === "2"');
    expect(await page.locator("#branch-list .row").count()).toBeLessThan(200);
    await page.locator("#branch-list .row").nth(3).click();
    expect(await text(page, "#state-at-entry")).toContain("Verification");
    expect(errors).toEqual([]);
    await page.close();
  });
});
