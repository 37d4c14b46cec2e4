import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { queryDb } from "./fleet-db.js";

const SAMPLE = join(import.meta.dirname, "../../evidence-samples/live-guidance-session.jsonl");

/** Another extension's entry of `bytes` characters: in no view, so the recorded requests still reproduce. */
const padding = (id: string, parentId: string | null, bytes: number) =>
  JSON.stringify({
    type: "custom",
    customType: "other-extension/notes/v1",
    data: { text: "x".repeat(bytes) },
    id,
    parentId,
    timestamp: "2026-12-01T10:48:10.100Z",
  });

/** The sample with 100 KB of another extension's entries before and after it: its records lie only further in. */
function padded(dir: string): string {
  const [header, ...entries] = readFileSync(SAMPLE, "utf8").trimEnd().split("\n") as [string, ...string[]];
  const reparented = entries.map((line) => {
    const entry = JSON.parse(line);
    return entry.parentId === null ? JSON.stringify({ ...entry, parentId: "pad00001" }) : line;
  });
  const last = JSON.parse(entries.at(-1) as string).id as string;
  const path = join(dir, "padded.jsonl");
  const lines = [header, padding("pad00001", null, 100_000), ...reparented, padding("pad00002", last, 100_000)];
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

describe("index: recorded requests", () => {
  it("are verified as check verifies them, also when they lie only in the middle of a large file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-digests-"));
    const file = padded(dir);
    const check = JSON.parse((await runCli(["check", file, "--json"], { cwd: dir })).stdout);
    expect(check.files[0].requests).toMatchObject({ recorded: 4, verified: 4 });
    const db = join(dir, "fleet.duckdb");
    expect((await runCli(["index", file, "--db", db], { cwd: dir })).exitCode).toBe(0);
    const [statuses] = await queryDb(db, [
      "SELECT digest_status, count(*)::INTEGER AS n FROM requests GROUP BY ALL ORDER BY ALL",
    ]);
    expect(statuses).toEqual([{ digest_status: "verified", n: 4 }]);
  });
});
