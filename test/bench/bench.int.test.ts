import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatBench } from "../../src/cli/bench/format.js";
import { setSourceHooks } from "../../src/cli/file-pool.js";
import { runCli } from "../../src/cli/run.js";

// Only the document's shape is asserted: wall-clock times depend on the machine and are never tested.
const scratch = mkdtempSync(join(tmpdir(), "ck-bench-"));
beforeAll(() => setSourceHooks(new URL("./ts-hooks.mjs", import.meta.url).href));
afterAll(() => {
  setSourceHooks(null);
  rmSync(scratch, { recursive: true, force: true });
});

const finite = (x: unknown) => typeof x === "number" && Number.isFinite(x);

describe("context-kit bench --quick --json", () => {
  it("prints a document of finite kit/host ratios, and --out writes the same document", async () => {
    const out = await runCli(["bench", "--quick", "--json", "--out", "bench.json"], { cwd: scratch });
    expect(out.stderr).toBe("");
    expect(out.exitCode).toBe(0);
    const doc = JSON.parse(out.stdout);
    expect(JSON.parse(readFileSync(join(scratch, "bench.json"), "utf8"))).toEqual(doc);

    expect(doc).toMatchObject({ kind: "context-kit-bench", version: 1, quick: true });
    expect(doc.host.package).toBe("@mariozechner/pi-coding-agent");
    expect(Object.keys(doc.machine).sort()).toEqual(
      ["cpuModel", "cpus", "freeMemoryBytes", "loadAverage", "node", "platform", "totalMemoryBytes"].sort(),
    );

    expect(doc.load.length).toBeGreaterThanOrEqual(2);
    for (const row of doc.load) {
      expect(row.source).toBe("synthetic");
      for (const key of ["entries", "bytes", "kitMs", "hostMs", "ratio", "reps"]) expect(finite(row[key])).toBe(true);
    }
    for (const key of ["entries", "leaves", "kitMs", "hostMs", "hostIndexedMs", "ratio", "ratioIndexed"]) {
      expect(finite(doc.replay[key])).toBe(true);
    }
    expect(doc.replay.leaves).toBe(25);
    expect(doc.replay.kitReductions).toBe(doc.replay.entries);
    expect(doc.perRequest.length).toBeGreaterThanOrEqual(2);
    for (const row of doc.perRequest) {
      for (const part of ["fold", "foldAnchored", "passThrough", "recoveryView", "hostClone"]) {
        expect(finite(row[part].medianMs) && finite(row[part].p99Ms)).toBe(true);
      }
      expect(finite(row.rewriteRatio)).toBe(true);
      // the appended message and the previous request's digest entry: each entry reduced once, whatever the length
      expect(row.reductionsPerRequest).toBeGreaterThan(1);
      expect(row.reductionsPerRequest).toBeLessThanOrEqual(2);
    }
    for (const key of ["kitMaxRssBytes", "hostMaxRssBytes", "ratio"]) expect(finite(doc.memory[key])).toBe(true);

    const names = Object.keys(doc.ratios);
    expect(names).toEqual(
      expect.arrayContaining(["replay", "replayIndexed", "foldGrowth", "foldGrowthAnchored", "memory"]),
    );
    for (const name of names) expect(finite(doc.ratios[name])).toBe(true);
    for (const t of doc.targets) {
      expect(typeof t.met).toBe("boolean");
      expect(finite(t.value) && finite(t.max)).toBe(true);
    }
    const table = formatBench(doc);
    for (const part of ["Load", "Replay", "Per request", "Peak memory"]) expect(table).toContain(part);
  }, 300_000);

  it("refuses a --sessions folder that does not exist (exit 2)", async () => {
    const out = await runCli(["bench", "--quick", "--sessions", "missing-folder"], { cwd: scratch });
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toContain("missing-folder");
  });
});
