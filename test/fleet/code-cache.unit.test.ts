import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codeCachePath, loadCommonJs, writeCodeCache } from "../../src/fleet/code-cache.js";

function bundle(): string {
  const file = join(mkdtempSync(join(tmpdir(), "ck-code-cache-")), "bundle.cjs");
  writeFileSync(
    file,
    [
      'const path = require("node:path");',
      "exports.name = path.basename(__filename);",
      "module.exports.twice = (n) => 2 * n;",
    ].join("\n"),
  );
  return file;
}

describe("a CommonJS bundle loaded with V8's code cache", () => {
  it("runs as require would, then loads from the cache it wrote", () => {
    const file = bundle();
    const first = loadCommonJs(file);
    expect(first.cacheUsed).toBe(false);
    expect(first.exports).toMatchObject({ name: "bundle.cjs" });
    expect((first.exports as { twice: (n: number) => number }).twice(21)).toBe(42);

    writeCodeCache(file, first);
    expect(existsSync(codeCachePath(file))).toBe(true);
    const again = loadCommonJs(file);
    expect(again.cacheUsed).toBe(true);
    expect((again.exports as { twice: (n: number) => number }).twice(4)).toBe(8);
  });

  it("compiles as usual when the cache is not V8's (damaged, or of another build)", () => {
    const file = bundle();
    writeFileSync(codeCachePath(file), "not a code cache");
    const loaded = loadCommonJs(file);
    expect(loaded.cacheUsed).toBe(false);
    expect(loaded.exports).toMatchObject({ name: "bundle.cjs" });
  });

  it("names the cache for this process's V8, so another V8's is never tried", () => {
    expect(codeCachePath("/x/a.cjs")).toBe(`/x/a.cjs.v8-${process.versions.v8}.cache`);
  });
});
