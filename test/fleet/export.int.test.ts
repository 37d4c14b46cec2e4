import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { loadSession } from "../../src/session.js";
import { queryDb } from "./fleet-db.js";

const ROOT = join(import.meta.dirname, "../..");
const FACTS = [
  "sessions",
  "branches",
  "requests",
  "tool_calls",
  "denials",
  "stalls",
  "tool_loops",
  "verification",
  "diagnostics",
];

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values: AnyValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: AnyValue }[];
  events: { name: string; timeUnixNano: string; attributes: { key: string; value: AnyValue }[] }[];
  status: { code: number };
}

function spansOf(doc: { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }): OtlpSpan[] {
  return doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
}

function isTypedValue(v: AnyValue): boolean {
  const keys = Object.keys(v);
  if (keys.length !== 1) return false;
  if (v.stringValue !== undefined) return typeof v.stringValue === "string";
  if (v.boolValue !== undefined) return typeof v.boolValue === "boolean";
  if (v.intValue !== undefined) return Number.isInteger(Number(v.intValue));
  if (v.doubleValue !== undefined) return typeof v.doubleValue === "number";
  if (v.arrayValue !== undefined) return v.arrayValue.values.every(isTypedValue);
  return false;
}

const attr = (s: OtlpSpan, key: string) => s.attributes.find((a) => a.key === key)?.value;

describe("export: Parquet for engines that scale, OTLP traces for observability stacks", () => {
  it("writes Parquet folders partitioned by start date that DuckDB reads back equal to the index", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-parquet-"));
    const db = join(dir, "fleet.duckdb");
    expect((await runCli(["index", "evidence-samples", "--db", db], { cwd: ROOT })).exitCode).toBe(0);
    const out = await runCli(["export", "evidence-samples", "--parquet", join(dir, "pq"), "--json"], { cwd: ROOT });
    expect(out.exitCode, out.stderr).toBe(0);
    // The export's database lives in memory: nothing of it is left beside the files or where the command ran.
    for (const where of [ROOT, process.cwd()])
      expect(readdirSync(where).filter((n) => n.includes("memory"))).toEqual([]);
    const written = JSON.parse(out.stdout);
    expect(written.tables.find((t: { table: string }) => t.table === "requests").rows).toBeGreaterThan(0);
    const pq = join(dir, "pq");
    const fromParquet = await queryDb(
      ":memory:",
      FACTS.map((t) =>
        written.tables.find((w: { table: string }) => w.table === t).rows === 0
          ? "SELECT 1 WHERE false"
          : `SELECT * EXCLUDE (started_date) FROM read_parquet('${pq}/${t}/*/*.parquet', hive_partitioning = true) ORDER BY ALL`,
      ),
    );
    const fromDb = await queryDb(
      db,
      FACTS.map((t) =>
        written.tables.find((w: { table: string }) => w.table === t).rows === 0
          ? "SELECT 1 WHERE false"
          : `SELECT * FROM ${t} ORDER BY ALL`,
      ),
    );
    expect(fromParquet).toEqual(fromDb);
    // Partitions are the sessions' start dates.
    const [dates] = await queryDb(":memory:", [
      `SELECT DISTINCT started_date::VARCHAR AS d FROM read_parquet('${pq}/sessions/*/*.parquet', hive_partitioning = true) ORDER BY d`,
    ]);
    expect(dates?.map((d) => d.d)).toEqual(["2026-10-24", "2026-12-01"]);
    // The same fleet query, on the database and on the folder.
    const query = (from: (t: string) => string) =>
      `SELECT b.model, count(*) AS sessions, count(*) FILTER (b.stalled) AS stalled
       FROM ${from("branches")} b JOIN ${from("sessions")} s USING (file) WHERE b.active GROUP BY b.model ORDER BY b.model`;
    const [onDb] = await queryDb(db, [query((t) => t)]);
    const [onParquet] = await queryDb(":memory:", [
      query((t) => `read_parquet('${pq}/${t}/*/*.parquet', hive_partitioning = true)`),
    ]);
    expect(onParquet).toEqual(onDb);
    expect(onDb).toEqual([{ model: "faux/faux-1", sessions: 6, stalled: 1 }]);
  });

  it("writes OTLP/JSON traces with GenAI spans and posts the same payload to a local OTLP/HTTP receiver", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-otlp-"));
    const received: { path: string; type: string; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        received.push({ path: req.url ?? "", type: String(req.headers["content-type"]), body });
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const file = join(dir, "traces.json");
      const out = await runCli(
        ["export", "evidence-samples", "--otlp", file, "--otlp-endpoint", `http://127.0.0.1:${port}`, "--json"],
        { cwd: ROOT },
      );
      expect(out.exitCode, out.stderr).toBe(0);
      const doc = JSON.parse(readFileSync(file, "utf8"));
      expect(received).toHaveLength(1);
      expect(received[0]?.path).toBe("/v1/traces");
      expect(received[0]?.type).toContain("application/json");
      expect(JSON.parse(received[0]?.body as string)).toEqual(doc);

      const spans = spansOf(doc);
      const ids = new Set<string>();
      for (const s of spans) {
        expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
        expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
        expect(s.traceId).not.toMatch(/^0+$/);
        expect(ids.has(`${s.traceId}/${s.spanId}`)).toBe(false);
        ids.add(`${s.traceId}/${s.spanId}`);
        expect(BigInt(s.endTimeUnixNano) >= BigInt(s.startTimeUnixNano)).toBe(true);
        for (const a of [...s.attributes, ...s.events.flatMap((e) => e.attributes)]) {
          expect(isTypedValue(a.value), `${s.name} ${a.key}`).toBe(true);
        }
      }
      // Every parent is a span of the same trace; each trace has one root.
      for (const s of spans) {
        if (s.parentSpanId === undefined || s.parentSpanId === "") continue;
        expect(ids.has(`${s.traceId}/${s.parentSpanId}`), s.name).toBe(true);
      }
      const roots = spans.filter((s) => !s.parentSpanId);
      expect(new Set(roots.map((s) => s.traceId)).size).toBe(roots.length);
      expect(roots.every((s) => s.name === "invoke_agent pi")).toBe(true);

      // One trace per branch, one chat span per assistant reply on it, one execute_tool span per call.
      const session = loadSession(join(ROOT, "evidence-samples/branched-school-session.jsonl"));
      const leaves = session.tree.leaves();
      const shown = "evidence-samples/branched-school-session.jsonl";
      const traces = new Set(
        roots.filter((r) => attr(r, "context_kit.file")?.stringValue === shown).map((r) => r.traceId),
      );
      expect(traces.size).toBe(leaves.length);
      for (const leaf of leaves) {
        const root = roots.find(
          (r) => traces.has(r.traceId) && attr(r, "context_kit.leaf_id")?.stringValue === leaf,
        ) as OtlpSpan;
        const path = session.tree.pathTo(leaf);
        const replies = path.filter((e) => e.type === "message" && e.message.role === "assistant");
        const calls = replies.flatMap((e) => {
          const content = (e as { message?: { content?: unknown } }).message?.content;
          return Array.isArray(content) ? content.filter((b: { type: string }) => b.type === "toolCall") : [];
        });
        const inTrace = spans.filter((s) => s.traceId === root.traceId);
        const chats = inTrace.filter((s) => attr(s, "gen_ai.operation.name")?.stringValue === "chat");
        expect(chats).toHaveLength(replies.length);
        expect(chats.every((c) => attr(c, "gen_ai.request.model")?.stringValue === "faux-1")).toBe(true);
        const tools = inTrace.filter((s) => attr(s, "gen_ai.operation.name")?.stringValue === "execute_tool");
        expect(tools).toHaveLength(calls.length);
        const chatIds = new Set(chats.map((c) => c.spanId));
        expect(tools.every((t) => chatIds.has(t.parentSpanId as string) && attr(t, "gen_ai.tool.name"))).toBe(true);
      }
      // The kit's decisions are events: the recovery marker, the denials (on their tool span), a failed tool's status.
      const events = spans.flatMap((s) => s.events.map((e) => e.name));
      expect(events).toContain("context_kit.recovery_marker");
      expect(events).toContain("context_kit.denial");
      expect(events).toContain("context_kit.verification_report");
      const usage = spans.find((s) => attr(s, "gen_ai.usage.input_tokens") !== undefined);
      expect(usage).toBeDefined();

      // Deterministic: the same files give the same ids.
      const again = join(dir, "again.json");
      await runCli(["export", "evidence-samples", "--otlp", again], { cwd: ROOT });
      expect(readFileSync(again, "utf8")).toBe(readFileSync(file, "utf8"));
    } finally {
      server.close();
    }
  });

  it("says why when the collector refuses, and refuses bad usage", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(400);
      res.end("no");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const out = await runCli(
        ["export", "evidence-samples/denials-session.jsonl", "--otlp-endpoint", `http://127.0.0.1:${port}/v1/traces`],
        { cwd: ROOT },
      );
      expect(out.exitCode).toBe(2);
      expect(out.stderr).toContain("E_OTLP");
    } finally {
      server.close();
    }
    expect((await runCli(["export", "evidence-samples"], { cwd: ROOT })).exitCode).toBe(2);
    expect((await runCli(["export", "evidence-samples", "--otlp-endpoint", "ftp://x"], { cwd: ROOT })).exitCode).toBe(
      2,
    );
  });
});
