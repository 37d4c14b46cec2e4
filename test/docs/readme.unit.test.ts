import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const README = "README.md";
const MAX_README_LINES = 250;
/**
 * Pages written on other branches at the same time; a link to one passes while it is absent. Empty this list once
 * they are merged, so every link must resolve.
 */
const PAGES_FROM_OTHER_BRANCHES: string[] = [];
/** The pages the README must link to. */
const README_PAGES = [
  "docs/architecture.md",
  "docs/protection.md",
  "docs/detection.md",
  "docs/performance.md",
  "docs/host-lines.md",
  "docs/fleet.md",
];

const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const docPages = () =>
  readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`);

/** Relative Markdown link targets of a page (`[text](target)`), code spans and blocks left out. */
function links(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((target) => !/^[a-z]+:/.test(target));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} -]/gu, "")
    .replace(/ /g, "-");
const anchorsOf = (markdown: string) =>
  markdown
    .replace(/```[\s\S]*?```/g, "")
    .split("\n")
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => slug(line.replace(/^#+ /, "")));

/** Every relative link of `page` that does not resolve: a missing file, or a missing heading for `#anchor`. */
function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const target of links(read(page))) {
    const [path = "", anchor] = target.split("#");
    const file = path === "" ? page : normalize(join(dirname(page), path));
    if (PAGES_FROM_OTHER_BRANCHES.includes(file) && !existsSync(join(ROOT, file))) continue;
    if (!existsSync(join(ROOT, file))) broken.push(`${page}: ${target} (no such file)`);
    else if (anchor && file.endsWith(".md") && !anchorsOf(read(file)).includes(anchor))
      broken.push(`${page}: ${target} (no such heading)`);
  }
  return broken;
}

describe("README and docs/", () => {
  it(`the README has at most ${MAX_README_LINES} lines`, () => {
    const lines = read(README).split("\n").length - 1;
    expect(lines).toBeGreaterThan(50);
    expect(lines).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it("every relative link in the README and in docs/ resolves to a file (and a heading, for #anchors)", () => {
    const pages = [README, ...docPages()];
    expect(pages.flatMap(brokenLinks)).toEqual([]);
  });

  it("the README links every docs page, those from other branches included", () => {
    const targets = links(read(README)).map((t) => t.split("#")[0]);
    for (const page of README_PAGES) expect(targets).toContain(page);
    const fromDocs = [README, ...docPages()].flatMap((page) =>
      links(read(page)).map((t) => normalize(join(dirname(page), t.split("#")[0] as string))),
    );
    for (const page of PAGES_FROM_OTHER_BRANCHES) expect(fromDocs).toContain(page);
  });

  it("names the sections a newcomer needs, the demo quick start and the test command", () => {
    const readme = read(README);
    for (const heading of ["Install", "Quick start (no API key)", "Exit codes", "Troubleshooting", "Documentation"])
      expect(readme).toContain(`\n## ${heading}\n`);
    expect(readme).toContain("npx pi-context --demo");
    expect(readme).toMatch(/\nnpm test +# .*CI runs it\n/);
    expect(readme).toContain("pi install /path/to/pi-context-kit");
  });

  it("user docs name no internal paths, issue numbers or commit hashes", () => {
    for (const page of [README, ...docPages()]) {
      // A published figure names the commit it was scored on, in these words.
      const text = read(page).replace(/scored once on commit `[0-9a-f]{7,40}`/g, "");
      expect(text, page).not.toMatch(/\/work\/|\.\.\/shared\//);
      expect(text, page).not.toMatch(/\b(src|test|reducers|projections|scripts)\/[\w/.-]*\.(ts|mjs)\b/);
      expect(text, page).not.toMatch(/\bissues? #?\d+|#\d{1,4}\b/i);
      expect(text, page).not.toMatch(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/);
    }
  });
});
