import { resolve } from "node:path";
import type { OtlpExport, ParquetExport } from "../../fleet/export.js";
import { plural } from "../../text.js";
import { type Command, JSON_HELP, JSON_OPTION, UsageError } from "../command.js";
import { expandInputs } from "../inputs.js";

function formatParquet(r: ParquetExport): string {
  const tables = r.tables.map((t) => `  ${t.table}: ${plural(t.rows, "row")}`);
  return [`${r.outDir}: ${plural(r.index.files, "file")} exported as Parquet`, ...tables].join("\n");
}

function formatOtlp(r: OtlpExport): string {
  const where = [r.out, r.endpoint ? `sent to ${r.endpoint}` : null].filter(Boolean).join(", ");
  const lines = [`${where}: ${plural(r.traces, "trace")}, ${plural(r.spans, "span")} from ${plural(r.files, "file")}`];
  for (const s of r.skipped) lines.push(`  ${s.file}: skipped: ${s.code}: ${s.message}`);
  return lines.join("\n");
}

export const exportCommand: Command = {
  name: "export",
  summary:
    "Write the fleet tables as Parquet (for DuckDB, Spark, Trino, BigQuery) or the sessions as OpenTelemetry traces.",
  usage: "FILE|DIR... (--parquet OUTDIR | --otlp OUT.json | --otlp-endpoint URL) [--json]",
  description:
    "--parquet writes the tables `index` builds (sessions, branches, requests, tool_calls, denials, stalls, tool_loops, verification, diagnostics) as Parquet, one folder per table, files partitioned by the session's start date. --otlp writes OpenTelemetry traces (OTLP/JSON) following the GenAI conventions: a trace per branch, a chat span per model request, an execute_tool span per tool call, the kit's decisions as span events; --otlp-endpoint sends the same traces to an OTLP/HTTP collector. Exit 0, 2 on bad usage, a path named that does not exist, or when the collector refuses the traces.",
  options: {
    ...JSON_OPTION,
    parquet: { type: "string" },
    otlp: { type: "string" },
    "otlp-endpoint": { type: "string" },
  },
  optionHelp: {
    "--parquet OUTDIR": "write one Parquet folder per table under OUTDIR, partitioned by started_date",
    "--otlp OUT.json": "write the traces as one OTLP/JSON ExportTraceServiceRequest",
    "--otlp-endpoint URL": "send the traces to an OTLP/HTTP collector (http://host:4318 or its /v1/traces URL)",
    ...JSON_HELP,
  },
  examples: [
    "context-kit export ~/.pi/agent/sessions --parquet fleet-parquet/",
    "context-kit export session.jsonl --otlp traces.json",
    "context-kit export ~/.pi/agent/sessions --otlp-endpoint http://127.0.0.1:4318",
  ],
  async run({ values, positionals, cwd }) {
    const parquet = values.parquet as string | undefined;
    const otlp = values.otlp as string | undefined;
    const endpoint = values["otlp-endpoint"] as string | undefined;
    if (parquet === undefined && otlp === undefined && endpoint === undefined) {
      throw new UsageError("name what to write: --parquet OUTDIR, --otlp OUT.json or --otlp-endpoint URL");
    }
    if (parquet !== undefined && (otlp !== undefined || endpoint !== undefined)) {
      throw new UsageError("--parquet and --otlp are written by separate runs");
    }
    if (endpoint !== undefined && !/^https?:\/\//.test(endpoint)) {
      throw new UsageError(`--otlp-endpoint needs an http(s) URL, not ${endpoint}`);
    }
    const items = expandInputs(positionals, cwd, { missing: "refused" });
    const fleet = await import("../../fleet/export.js");
    if (parquet !== undefined) {
      const result = await fleet.exportParquet(items, resolve(cwd, parquet));
      result.outDir = parquet;
      return { exitCode: 0, json: result, text: formatParquet(result) };
    }
    const result = await fleet.exportOtlp(items, otlp === undefined ? null : resolve(cwd, otlp), endpoint ?? null);
    if (otlp !== undefined) result.out = otlp;
    return { exitCode: 0, json: result, text: formatOtlp(result) };
  },
};
