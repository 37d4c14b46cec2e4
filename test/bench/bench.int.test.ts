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

describe("context-kit bench --quick --check --json", () => {
  it("prints a document of finite kit/host ratios, and --out writes the same document", async () => {
    const out = await runCli(["bench", "--quick", "--check", "--json", "--out", "bench.json"], { cwd: scratch });
    expect(out.stderr).toBe("");
    const doc = JSON.parse(out.stdout);
    // --check exits 1 exactly when a target is missed.
    expect(out.exitCode).toBe(doc.targets.some((t: { met: boolean }) => !t.met) ? 1 : 0);
    expect(JSON.parse(readFileSync(join(scratch, "bench.json"), "utf8"))).toEqual(doc);

    expect(doc).toMatchObject({ kind: "context-kit-bench", version: 2, quick: true });
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
      // each request hashes the one appended message and links it to the previous request's chain
      expect(row.digestWork.pass).toEqual({ messagesHashed: 1, links: 1 });
      expect(row.digestWork.view.messagesHashed).toBe(1);
      expect(row.digestWork.view.links).toBeLessThanOrEqual(2);
    }
    expect(doc.commands.rows.map((r: { name: string }) => r.name)).toEqual([
      "inspect --json",
      "replay --json",
      "check --json",
      "detect --json",
      "view --json",
      "report",
    ]);
    for (const row of [doc.commands.floor, doc.commands.host, ...doc.commands.rows]) {
      for (const key of ["wallMs", "workMs", "maxRssBytes", "baselineRssBytes"]) expect(finite(row[key])).toBe(true);
    }
    for (const row of doc.commands.rows) expect(finite(row.floorRatio) && finite(row.netMemoryRatio)).toBe(true);
    expect(doc.folder.files).toBeGreaterThan(doc.folder.distinct);
    for (const row of [doc.folder.floor, ...doc.folder.rows]) {
      expect(finite(row.filesPerSecond) && finite(row.megabytesPerSecond) && finite(row.floorRatio)).toBe(true);
    }
    expect(doc.fileTools.files).toBeGreaterThan(100);
    expect(new Set(doc.fileTools.rows.map((r: { tool: string }) => r.tool))).toEqual(new Set(["grep", "find", "ls"]));
    for (const row of doc.fileTools.rows) expect(finite(row.kitMs)).toBe(true);

    const names = Object.keys(doc.ratios);
    expect(names).toEqual(
      expect.arrayContaining([
        "replay",
        "replayIndexed",
        "foldGrowth",
        "foldGrowthAnchored",
        "command.inspect --json",
        "memory.inspect --json",
        "folder.check --json",
      ]),
    );
    for (const name of names) expect(finite(doc.ratios[name])).toBe(true);
    for (const t of doc.targets) {
      expect(typeof t.met).toBe("boolean");
      expect(finite(t.value) && finite(t.max)).toBe(true);
    }
    const table = formatBench(doc);
    for (const part of ["Commands", "Folders", "Load", "Replay", "Per request", "File tools"])
      expect(table).toContain(part);
  }, 600_000);

  it("refuses a --sessions folder that does not exist (exit 2)", async () => {
    const out = await runCli(["bench", "--quick", "--sessions", "missing-folder"], { cwd: scratch });
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toContain("missing-folder");
  });
});
