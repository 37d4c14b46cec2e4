import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appendedIndexRow, appendedLines, formatFleetRows } from "../../bench/fleet.js";
import { loadSessionText } from "../../src/session.js";

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
  });
});
