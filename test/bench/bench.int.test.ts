import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { BenchPlan } from "../../bench/fixtures.js";

// The built harness, as `npm run bench` runs it: its measured child processes start from plain JavaScript.
const DIST = "../../dist";
const { benchCommand }: typeof import("../../bench/command.js") = await import(`${DIST}/bench/command.js`);
const { formatBench }: typeof import("../../bench/format.js") = await import(`${DIST}/bench/format.js`);
const { runCommand }: typeof import("../../src/cli/run.js") = await import(`${DIST}/src/cli/run.js`);

const bench = (args: string[]) => runCommand(benchCommand, args, { cwd: scratch });

// Only the document's shape is asserted: wall-clock times depend on the machine and are never tested.
// `--quick` runs here on the smallest inputs that still give every row (two sizes, a 25-leaf tree, a folder with
// repeats, a tree of over 100 files), once each: the quick and full sizes are for `npm run bench`.
vi.mock("../../dist/bench/fixtures.js", async (original) => ({
  ...(await original<typeof import("../../bench/fixtures.js")>()),
  QUICK_PLAN: {
    quick: true,
    sizes: [200, 400],
    tree: { entries: 200, leaves: 25 },
    loadReps: () => 1,
    replayReps: 1,
    requests: 20,
    requestBudgetMs: 1_000,
    cloneReps: () => 1,
    commandReps: 1,
    realReps: 1,
    folder: { files: 6, distinct: 3, reps: 1 },
    treeFiles: 120,
    toolReps: 1,
  } satisfies BenchPlan,
}));
const scratch = mkdtempSync(join(tmpdir(), "ck-bench-"));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const finite = (x: unknown) => typeof x === "number" && Number.isFinite(x);

describe("npm run bench -- --quick --check --json", () => {
  it("prints a document of finite kit/host ratios, and --out writes the same document", async () => {
    const out = await bench(["--quick", "--check", "--json", "--out", "bench.json"]);
    expect(out.stderr).toBe("");
    const doc = JSON.parse(out.stdout);
    // --check exits 1 exactly when an applicable target is missed; a quick run judges no full-size target.
    type T = { name: string; met: boolean; applicable: boolean };
    expect(out.exitCode).toBe(doc.targets.some((t: T) => t.applicable && !t.met) ? 1 : 0);
    const notApplicable = doc.targets.filter((t: T) => !t.applicable).map((t: T) => t.name);
    expect(notApplicable).toContain("command.inspect --json");
    expect(notApplicable).toContain("memory.inspect --json");
    expect(notApplicable).toContain("foldGrowth");
    expect(doc.targets.filter((t: T) => t.applicable).map((t: T) => t.name)).toContain("replay");
    expect(JSON.parse(readFileSync(join(scratch, "bench.json"), "utf8"))).toEqual(doc);

    expect(doc).toMatchObject({ kind: "context-kit-bench", version: 2, quick: true });
    expect(doc.host.package).toBe("@mariozechner/pi-coding-agent");
    expect(Object.keys(doc.machine).sort()).toEqual(
      [
        "cpuModel",
        "cpus",
        "droppedEnv",
        "freeMemoryBytes",
        "loadAverage",
        "node",
        "platform",
        "totalMemoryBytes",
      ].sort(),
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
    expect(table).toMatch(/n\/a \(quick: full-size inputs only\)/);
    expect(table).toMatch(/full-size targets? not applicable to --quick/);
    for (const part of ["Commands", "Folders", "Load", "Replay", "Per request", "File tools"])
      expect(table).toContain(part);
    expect(doc.machine.droppedEnv).toEqual(
      process.env.NODE_EXTRA_CA_CERTS === undefined ? [] : ["NODE_EXTRA_CA_CERTS"],
    );
    const withBundle = formatBench({ ...doc, machine: { ...doc.machine, droppedEnv: ["NODE_EXTRA_CA_CERTS"] } });
    expect(withBundle).toContain("Timed processes run without NODE_EXTRA_CA_CERTS");
    expect(formatBench({ ...doc, machine: { ...doc.machine, droppedEnv: [] } })).not.toContain(
      "Timed processes run without",
    );
  }, 600_000);

  it("--help says how it is run from a checkout", async () => {
    const out = await bench(["--help"]);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain("Usage: npm run bench -- [--quick] [--check] [--out FILE] [--sessions DIR] [--json]");
  });

  it("refuses a --sessions folder that does not exist (exit 2)", async () => {
    const out = await bench(["--quick", "--sessions", "missing-folder"]);
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toContain("missing-folder");
  });
});
