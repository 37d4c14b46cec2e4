import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { SessionBuilder } from "../synth/session-builder.js";
import { chromiumPresent, launch, warnIfAbsent } from "./chromium.js";

const ROOT = join(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "ck-fleet-index-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
warnIfAbsent("the fleet index page");

interface Row {
  file: string;
  model: string;
  stalls: string;
  loops: string;
  requests: string;
  requestsClass: string;
}

describe.skipIf(!chromiumPresent)("report DIR: the index page an auditor looks at, in headless Chromium", () => {
  it("draws stalls, loops and denials by day and by model, sorts by a column, and shows unrecorded requests as neutral", async () => {
    const folder = join(dir, "fleet");
    mkdirSync(folder);
    for (const name of ["stalled-school-session", "denials-session", "live-guidance-session", "verification-session"]) {
      copyFileSync(join(ROOT, "evidence-samples", `${name}.jsonl`), join(folder, `${name}.jsonl`));
    }
    const b = new SessionBuilder({ sessionId: "loop-1" });
    b.user("What is in config.json?");
    for (let i = 0; i < 5; i++) b.toolRound("read", { path: "config.json" }, '{"port": 8080}');
    writeFileSync(join(folder, "looping.jsonl"), b.toJsonl());
    const out = await runCli(["report", folder, "--out", join(dir, "out")], { cwd: dir });
    expect(out.exitCode, out.stderr).toBe(0);

    const browser = await launch(dir, { width: 1400 });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      await page.goto(pathToFileURL(join(dir, "out/index.html")).href);
      const rows = async (): Promise<Row[]> =>
        (await page.evaluate(`[...document.querySelectorAll("#sessions tbody tr")].map((r) => {
          const heads = [...document.querySelectorAll("#sessions thead th")].map((h) => h.textContent.replace(/[▲▼ ]+$/, ""));
          const at = (name) => r.cells[heads.indexOf(name)];
          return { file: at("session").textContent.trim(), model: at("model").textContent, stalls: at("stalls").textContent,
            loops: at("loops").textContent, requests: at("requests").textContent, requestsClass: at("requests").className };
        })`)) as Row[];
      const before = await rows();
      expect(before).toHaveLength(5);
      const looping = before.find((r) => r.file.endsWith("looping.jsonl")) as Row;
      expect(looping.loops).toBe("1");
      const stalled = before.find((r) => r.file.endsWith("stalled-school-session.jsonl")) as Row;
      expect([stalled.stalls, stalled.model]).toEqual(["1", "faux/faux-1"]);
      // A plain Pi session's requests are "not recorded": muted, not a warning; recorded and reproduced ones are good.
      expect(stalled.requests).toMatch(/not recorded$/);
      expect(stalled.requestsClass).toBe("muted");
      const live = before.find((r) => r.file.endsWith("live-guidance-session.jsonl")) as Row;
      expect([live.requests, live.requestsClass]).toEqual(["4 of 4 reproduced", "good"]);

      // Charts: the bars carry the numbers the table counts.
      const bars =
        (await page.evaluate(`[...document.querySelectorAll("#by-model .bar")].filter((b) => b.getBoundingClientRect().height > 0)
        .map((b) => [b.closest(".group").dataset.label, b.dataset.series, Number(b.dataset.value)])`)) as [
          string,
          string,
          number,
        ][];
      expect(bars).toContainEqual(["faux/faux-1", "stalls", 1]);
      expect(bars).toContainEqual(["faux/faux-1", "denials", 4]);
      const looped = bars.filter(([, series]) => series === "loops");
      expect(looped.reduce((n, [, , v]) => n + v, 0)).toBe(1);
      const days = (await page.evaluate(
        `[...document.querySelectorAll("#by-day .group")].map((g) => g.dataset.label)`,
      )) as string[];
      expect(days).toEqual([...days].sort());
      expect(days).toContain("2026-10-24");

      // Sorting: click "loops" and the looping session comes first; click again and it goes last.
      await page.click("#sessions thead th:text-is('loops')");
      expect((await rows())[0]?.file).toMatch(/looping\.jsonl$/);
      expect(await page.getAttribute("#sessions thead th:text-is('loops')", "aria-sort")).toBe("descending");
      await page.click("#sessions thead th:has-text('loops')");
      expect((await rows()).at(-1)?.file).toMatch(/looping\.jsonl$/);
      await page.click("#sessions thead th:text-is('session')");
      const files = (await rows()).map((r) => r.file);
      expect(files).toEqual([...files].sort().reverse());
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
