import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/** Every module the entry reaches through static and dynamic imports, and the packages it names. */
async function importGraph(entry: string): Promise<{ modules: string[]; packages: string[] }> {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
  });
  const inputs = result.metafile.inputs;
  const packages = new Set<string>();
  for (const input of Object.values(inputs)) {
    for (const imported of input.imports) if (imported.external) packages.add(imported.path);
  }
  return { modules: Object.keys(inputs), packages: [...packages] };
}

describe("the Pi extension never loads the fleet code or DuckDB", () => {
  it("reaches no src/fleet module and no @duckdb or OpenTelemetry package", async () => {
    const { modules, packages } = await importGraph("src/pi/kit-extension.ts");
    expect(modules.length).toBeGreaterThan(20);
    expect(modules.filter((m) => m.includes("src/fleet/"))).toEqual([]);
    expect(
      packages.filter((p) => p.startsWith("@duckdb") || p.startsWith("@opentelemetry") || p === "cli-progress"),
    ).toEqual([]);
    // DuckDB is loaded with require(), which the graph does not follow: no module reached may name it either.
    const naming = modules.filter(
      (m) => !m.startsWith("<") && readFileSync(join(ROOT, m), "utf8").includes("@duckdb/"),
    );
    expect(naming).toEqual([]);
  });

  it("the check itself sees DuckDB where it is used: the CLI reaches the module that requires it", async () => {
    const { modules } = await importGraph("src/cli/main.ts");
    const db = modules.find((m) => m.endsWith("src/fleet/db.ts")) as string;
    expect(db).toBeDefined();
    expect(readFileSync(join(ROOT, db), "utf8")).toContain('("@duckdb/node-api")');
  });
});
