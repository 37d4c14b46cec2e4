import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { SessionBuilder } from "../synth/session-builder.js";
import { chromiumPresent, launch, openPage, warnIfAbsent } from "./chromium.js";

warnIfAbsent("report-tool-loops.e2e");

/** An escaped loop (three identical failing reads, then other work) and an OpenClaw delivery mirror. */
function escapedLoop(): string {
  const b = new SessionBuilder({ sessionId: "loop-0001" });
  b.user("fix the build");
  for (let i = 0; i < 3; i++) b.toolRound("read", { path: "missing.ts" }, "ENOENT: missing.ts", undefined, true);
  b.toolRound("ls", { path: "." }, "a.ts");
  b.assistant("missing.ts does not exist.");
  b.hostEcho("missing.ts does not exist.");
  return b.toJsonl();
}

describe.skipIf(!chromiumPresent)("tool-loop episodes in the report, in headless Chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "report-loops-"));
  let context: BrowserContext;

  beforeAll(async () => {
    writeFileSync(join(dir, "loop.jsonl"), escapedLoop());
    const out = await runCli(["report", "loop.jsonl", "--out", "loop.html"], { cwd: dir });
    expect(out.exitCode, out.stderr).toBe(0);
    context = await launch(dir);
  });

  afterAll(async () => {
    await context?.close();
  });

  it("marks the episode's calls and results on the timeline and labels the mirror", async () => {
    const { page, errors } = await openPage(context, join(dir, "loop.html"));
    await page.waitForSelector(".row");
    // The timeline lists rows in more than one view: count the entries marked.
    const marked = (selector: string) =>
      page.locator(selector).evaluateAll((rows) => new Set(rows.map((r) => r.getAttribute("data-entry"))).size);
    expect(await marked(".row.loop")).toBe(6);
    expect(await marked(".row.echo")).toBe(1);
    expect(await marked(".row.err:not(.loop)")).toBe(0);
    expect(await page.locator("body").textContent()).toContain("1 tool-loop episode (2 calls wasted)");
    expect(errors).toEqual([]);
  });
});
