import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { FileItem } from "../files/file-pool.js";
import { InputError } from "../files/input-error.js";
import { loadInput } from "../files/load-input.js";
import { FleetDb } from "./db.js";
import { indexInto } from "./index-run.js";
import type { IndexSummary } from "./index-summary.js";
import { type FleetSpan, sessionSpans } from "./otlp.js";
import { FACT_TABLES } from "./tables.js";

export interface ParquetExport {
  outDir: string;
  tables: { table: string; rows: number }[];
  index: IndexSummary;
}

/**
 * The fleet tables as Parquet: one folder per table, files partitioned by the session's start date (Hive style,
 * `started_date=2026-12-01/`), which DuckDB, Spark, Trino, BigQuery, pandas and polars read directly.
 */
export async function exportParquet(items: readonly FileItem[], outDir: string): Promise<ParquetExport> {
  const db = await FleetDb.open(":memory:");
  try {
    const index = await indexInto(db, ":memory:", items);
    mkdirSync(outDir, { recursive: true });
    const tables: ParquetExport["tables"] = [];
    for (const table of FACT_TABLES) {
      const [count] = await db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`);
      const rows = count?.n ?? 0;
      tables.push({ table, rows });
      if (rows === 0) continue;
      const select =
        table === "sessions"
          ? `SELECT *, ${DATE} AS started_date FROM sessions s`
          : `SELECT t.*, ${DATE} AS started_date FROM ${table} t LEFT JOIN sessions s USING (file)`;
      const target = join(outDir, table).replaceAll("'", "''");
      await db.run(
        `COPY (${select}) TO '${target}' (FORMAT parquet, PARTITION_BY (started_date), OVERWRITE_OR_IGNORE true)`,
      );
    }
    return { outDir, tables, index };
  } finally {
    db.close();
  }
}

const DATE = "coalesce(strftime(s.started_at, '%Y-%m-%d'), 'unknown')";

export interface OtlpExport {
  out: string | null;
  endpoint: string | null;
  files: number;
  traces: number;
  spans: number;
  /** Files that could not be read as sessions, with why. */
  skipped: { file: string; code: string; message: string }[];
}

/** The spans of every readable file; the others are named in `skipped`. */
export function fleetSpans(items: readonly FileItem[]): { spans: FleetSpan[]; skipped: OtlpExport["skipped"] } {
  const spans: FleetSpan[] = [];
  const skipped: OtlpExport["skipped"] = [];
  for (const item of items) {
    try {
      const session = loadInput(item.path, item.shown);
      if (session.log.unusable) {
        skipped.push({ file: item.shown, code: "E_BAD_HEADER", message: "not a Pi session file" });
        continue;
      }
      spans.push(...sessionSpans(item.shown, session));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      skipped.push({ file: item.shown, code: error.code, message: error.message });
    }
  }
  return { spans, skipped };
}

/** The OTLP/JSON `ExportTraceServiceRequest` of these spans, as the OTLP/HTTP exporter sends it. */
export function otlpJson(spans: readonly FleetSpan[]): string {
  const bytes = JsonTraceSerializer.serializeRequest(spans as never);
  return bytes ? Buffer.from(bytes).toString("utf8") : '{"resourceSpans":[]}';
}

export async function exportOtlp(items: readonly FileItem[], out: string | null, endpoint: string | null) {
  const { spans, skipped } = fleetSpans(items);
  if (out !== null) writeFileSync(out, `${otlpJson(spans)}\n`);
  if (endpoint !== null) await sendOtlp(spans, endpoint);
  const traces = new Set(spans.map((s) => s.spanContext().traceId)).size;
  const result: OtlpExport = { out, endpoint, files: items.length, traces, spans: spans.length, skipped };
  return result;
}

/** Sends the spans to an OTLP/HTTP collector (`/v1/traces` is added to a URL without a path). */
export async function sendOtlp(spans: readonly FleetSpan[], endpoint: string): Promise<void> {
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
  const url = new URL(endpoint);
  if (url.pathname === "/" || url.pathname === "") url.pathname = "/v1/traces";
  const exporter = new OTLPTraceExporter({ url: url.href });
  try {
    await new Promise<void>((resolve, reject) => {
      exporter.export(spans as never, (result) => {
        if (result.code === 0) resolve();
        else
          reject(
            new InputError("E_OTLP", `${endpoint}: ${result.error?.message ?? "the collector refused the traces"}`),
          );
      });
    });
  } finally {
    await exporter.shutdown();
  }
}
