import { existsSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { expect } from "vitest";

/** Debian's Chromium, driven by playwright-core (which downloads no browser). */
export const CHROMIUM = "/usr/bin/chromium";
export const chromiumPresent = existsSync(CHROMIUM);

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function warnIfAbsent(test: string): void {
  if (!chromiumPresent) {
    console.warn(`${test}: skipped, ${CHROMIUM} is absent (install Debian's package: apt-get install -y chromium)`);
  }
}

export async function launch(
  dir: string,
  options: { javaScriptEnabled?: boolean; width?: number } = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(mkdtempSync(join(dir, "profile-")), {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: options.width ?? 1440, height: 900 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
}

/** Polls an expression through the debugging protocol; the page's CSP forbids the eval that waitForFunction uses. */
export async function until(page: Page, expression: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Opens a session page and waits for its script; console errors and warnings are collected. */
export async function openPage(
  context: BrowserContext,
  file: string,
  hash = "",
): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  await page.goto(pathToFileURL(file).href + hash);
  await page.waitForSelector("html[data-ready]");
  expect(await page.getAttribute("html", "data-ready")).toBe("true");
  return { page, errors };
}

/** The text as rendered (block elements on their own lines), which the assertions match with \s+. */
// biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a reader sees
export const rendered = (locator: Locator) => locator.innerText();
export const text = (page: Page, selector: string) => rendered(page.locator(selector).first());
