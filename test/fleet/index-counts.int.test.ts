import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { SHARED_SESSIONS, sharedSessionFiles } from "../helpers/shared-sessions.js";
import { queryDb } from "./fleet-db.js";

const ROOT = join(import.meta.dirname, "../..");
const SAMPLES = join(ROOT, "evidence-samples");
const shared = sharedSessionFiles("fleet index counts");

// biome-ignore lint/suspicious/noExplicitAny: the CLI's JSON documents, read field by field
type Doc = any;

async function json(argv: string[]): Promise<Doc> {
  const out = await runCli([...argv, "--json"], { cwd: ROOT });
  return JSON.parse(out.stdout);
}

function denialsInFile(path: string): number {
  let n = 0;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    try {
      const details = JSON.parse(line)?.message?.details;
      if (details?.code === "CONTEXT_ACCESS_DENIED" && typeof details.scope === "string") n++;
    } catch {}
  }
  return n;
}

describe("index on the samples and the real sessions: the same facts as replay, check and detect", () => {
  it("builds a DuckDB file whose rows agree with replay --json, check --json and detect --json for every file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-counts-"));
    const db = join(dir, "fleet.duckdb");
    const inputs = shared.length > 0 ? [SAMPLES, SHARED_SESSIONS] : [SAMPLES];
    const run = await runCli(["index", ...inputs, "--db", db, "--json"], { cwd: ROOT });
    expect(run.exitCode).toBe(0);
    const summary = JSON.parse(run.stdout);
    const files = (await json(["replay", ...inputs])).files as Doc[];
    expect(summary.indexed).toBe(files.length);
    expect(files.length).toBeGreaterThanOrEqual(6 + shared.length);

    const [sessions, branches, requests, stalls, denials] = await queryDb(db, [
      "SELECT * FROM sessions",
      "SELECT * FROM branches",
      "SELECT file, digest_status, count(*)::INTEGER AS n FROM requests GROUP BY ALL",
      "SELECT * FROM stalls",
      "SELECT file, count(*)::INTEGER AS n FROM denials GROUP BY file",
    ]);
    expect(sessions).toHaveLength(files.length);
    for (const replay of files) {
      const file = replay.file as string;
      const path = resolve(ROOT, file);
      const session = sessions?.find((s) => s.file === file) as Record<string, unknown>;
      expect(session.active_leaf_id, file).toBe(replay.activeLeafId);

      // replay: one row per branch with the same shape and state.
      const rows = branches?.filter((b) => b.file === file) ?? [];
      expect(rows.length, file).toBe(replay.branches.length);
      for (const b of replay.branches) {
        const row = rows.find((r) => r.leaf_id === b.leafId) as Record<string, unknown>;
        expect(row, `${file} ${b.leafId}`).toBeDefined();
        expect(
          [row.active, row.depth, row.fork_from_id, row.stalled, row.tool_loop_kind, row.recovery_anchor_id],
          `${file} ${b.leafId}`,
        ).toEqual([
          b.active,
          b.depth,
          b.forkFromId,
          b.state.recovery.stalled,
          b.toolLoop.loop?.kind ?? null,
          b.state.recovery.anchorId,
        ]);
        expect([row.verification_revision, row.verification_incomplete, row.model]).toEqual([
          b.state.verification.revision,
          b.state.verification.incomplete,
          b.state.session.model,
        ]);
      }

      // check: reader errors make the status, recorded requests their digest status.
      const check = (await json(["check", file])).files[0];
      expect(session.status, file).toBe(check.readerErrors.length > 0 ? "errors" : "ok");
      const count = (status: string) =>
        (requests?.find((r) => r.file === file && r.digest_status === status)?.n as number | undefined) ?? 0;
      expect([count("verified"), count("differs"), count("other-version")], file).toEqual([
        check.requests.verified,
        check.requests.differs,
        check.requests.otherVersion,
      ]);

      // detect: the active leaf's stall and loop.
      const detect = await json(["detect", file]);
      const active = rows.find((r) => r.active) as Record<string, unknown>;
      expect([active.stalled, active.tool_loop_kind], file).toEqual([detect.stalled, detect.toolLoop?.kind ?? null]);
      const stall = stalls?.find((s) => s.file === file && s.leaf_id === detect.leafId);
      expect(stall?.entry_ids ?? null, file).toEqual(detect.stalled ? detect.promiseEntryIds : null);

      expect(denials?.find((d) => d.file === file)?.n ?? 0, file).toBe(denialsInFile(path));
    }
    // The samples hold what the tables are for: a stall, denials, verification, reproduced requests.
    const [facts] = await queryDb(db, [
      `SELECT (SELECT count(*) FROM stalls)::INTEGER AS stalls, (SELECT count(*) FROM denials)::INTEGER AS denials,
       (SELECT count(*) FROM verification)::INTEGER AS checks,
       (SELECT count(*) FROM requests WHERE digest_status = 'verified')::INTEGER AS verified,
       (SELECT count(*) FROM tool_calls WHERE is_error)::INTEGER AS failed`,
    ]);
    expect(facts?.[0]).toMatchObject({ stalls: 1, denials: 4, checks: 10, verified: 4 });
    expect(facts?.[0]?.failed as number).toBeGreaterThan(0);
  });

  it("answers the fleet questions with stats, and detect DIR gives one line per file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-stats-"));
    const db = join(dir, "fleet.duckdb");
    expect((await runCli(["index", SAMPLES, "--db", db], { cwd: ROOT })).exitCode).toBe(0);
    const stats = await json(["stats", db]);
    expect(stats.sessions).toMatchObject({ total: 6, ok: 6, unreadable: 0 });
    expect(stats.byModel.find((m: Doc) => m.model === "faux/faux-1")).toMatchObject({ sessions: 6, stalled: 1 });
    expect(stats.topDeniedScopes[0]).toEqual({ scope: "/home/user/project/generated", denials: 2, sessions: 1 });
    expect(stats.requests.verified).toBe(4);
    expect(stats.incompleteVerification).toBe(1);
    const text = await runCli(["stats", db], { cwd: ROOT });
    expect(text.stdout).toContain("faux/faux-1");

    const lines = await runCli(["detect", "evidence-samples"], { cwd: ROOT });
    const out = lines.stdout.trim().split("\n");
    expect(out).toHaveLength(7);
    expect(out.filter((l) => l.includes(": STALLED"))).toEqual([
      expect.stringMatching(/^evidence-samples\/stalled-school-session\.jsonl leaf /),
    ]);
    const ndjson = await runCli(["detect", "evidence-samples", "--ndjson"], { cwd: ROOT });
    const docs = ndjson.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const single = await json(["detect", "evidence-samples/stalled-school-session.jsonl"]);
    expect(docs.find((d) => d.file === single.file)).toEqual(single);
    expect((await runCli(["stats", join(dir, "none.duckdb")], { cwd: ROOT })).exitCode).toBe(2);
  });
});
