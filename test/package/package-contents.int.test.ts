import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

/** The files `npm pack` would publish (scripts off: the global setup has built `dist/`). */
function packed(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0]?.files.map((f) => f.path) ?? [];
}

/** Relative module specifiers of a built file: static imports, re-exports and dynamic imports. */
function relativeImports(source: string): string[] {
  const found = source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g);
  return [...found].map((m) => m[1] as string);
}

describe("the published package", () => {
  const files = packed();
  const set = new Set(files);

  it("holds the kit only: built code, schemas, the page script and the README", () => {
    expect(files.length).toBeGreaterThan(100);
    const allowed =
      /^(dist\/src\/|dist\/reducers\/|dist\/projections\/|schemas\/|dist\/report-client\.js$|README\.md$|package\.json$|LICENSE$)/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    expect(files.filter((f) => /(^|\/)(bench|test)\//.test(f))).toEqual([]);
    expect(files.filter((f) => /\.ts$/.test(f) && !f.endsWith(".d.ts"))).toEqual([]);
  });

  it("has every file its entry points name", () => {
    const entries = [
      manifest.main,
      manifest.types,
      ...Object.values(manifest.bin as Record<string, string>),
      ...(manifest.pi.extensions as string[]),
      ...Object.values(manifest.exports as Record<string, string | Record<string, string>>).flatMap((e) =>
        typeof e === "string" ? [e] : Object.values(e),
      ),
      "dist/report-client.js",
    ].map((p: string) => normalize(p).replace(/^\.\//, ""));
    expect(entries.filter((e) => !set.has(e))).toEqual([]);
  });

  it("imports nothing it does not ship (no test/ or bench/ module reached from the kit)", () => {
    const missing: string[] = [];
    for (const file of files.filter((f) => f.endsWith(".js"))) {
      for (const spec of relativeImports(readFileSync(join(ROOT, file), "utf8"))) {
        const target = normalize(join(dirname(file), spec));
        if (!set.has(target)) missing.push(`${file} -> ${spec}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
