import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appendedIndexRow, appendedLines, type FleetBenchRow, formatFleetRows } from "../../bench/fleet.js";
import { targetResults } from "../../bench/targets.js";
import { loadSessionText } from "../../src/session.js";

/** The fleet targets `bench --check` would judge, for these rows alone. */
function fleetTargets(fleet: FleetBenchRow[]) {
  const none = { rows: [] };
  const results = targetResults({
    load: [],
    replay: { ratio: 0 },
    perRequest: [],
    foldGrowth: { from: "", to: "", ratio: 0, anchoredRatio: 0, hookRatio: 0 },
    commands: none,
    fileTools: { totals: { grep: { ratio: null }, find: { ratio: null }, ls: { ratio: null } } },
    fleet,
    quick: false,
  } as unknown as Parameters<typeof targetResults>[0]);
  return results.filter((t) => t.name.startsWith("fleet."));
}

const SAMPLE = join(import.meta.dirname, "../../evidence-samples/verification-session.jsonl");

describe("the fleet bench rows measure what they name", () => {
  it("appends whole lines that continue the active leaf, so the re-index takes the tail path", async () => {
    const text = readFileSync(SAMPLE, "utf8");
    const tail = appendedLines(SAMPLE, 2);
    const session = loadSessionText("s.jsonl", text + tail);
    expect(session.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(session.tree.leaves()).toContain("br1");
    const before = loadSessionText("s.jsonl", text).tree;
    const active = before.activeLeafId as string;
    expect(session.tree.pathTo("br1").length).toBe(before.pathTo(active).length + 6);
    expect(session.tree.activeLeafId).toBe("br1");
    // The row throws unless the second run indexed the file by its tail.
    const row = await appendedIndexRow(SAMPLE, mkdtempSync(join(tmpdir(), "fleet-bench-")), 1, 2);
    expect(row).toMatchObject({ name: "index FILE (appended 6 lines)", baseline: "replay of the new tail", target: 2 });
    expect(row.ms).toBeGreaterThan(0);
    expect(row.ratio).toBeCloseTo(row.ms / row.baselineMs, 2);
    expect(formatFleetRows([row])).toContain(row.met ? " met" : "MISSED");

    // As measureFleet shows it: context, never a target that --check could fail on.
    const context = { ...row, name: `${row.name} (in-process)`, info: true as const };
    expect(formatFleetRows([context])).toContain("(context, no target)");
    expect(formatFleetRows([context])).not.toMatch(/met|MISSED/);
    const targets = fleetTargets([row, context]);
    expect(targets.map((t) => t.name)).toEqual([`fleet.${row.name}`]);
  });
});
