import { relative } from "node:path";
import { type Diagnostic, FATAL_CODES, formatDiagnostic } from "../../log/diagnostics.js";
import type { SessionHeader } from "../../log/entry-types.js";
import type { LoadedSession } from "../../session.js";
import { type Command, JSON_OPTION } from "../command.js";
import { mapFiles } from "../file-pool.js";
import { expandInputs, isSingleFile, loadInput } from "../inputs.js";
import type { CommandResultWithStderr } from "../run.js";

export interface InspectReport {
  file: string;
  header: SessionHeader | null;
  sourceVersion: number;
  entries: number;
  byType: Record<string, number>;
  activeLeafId: string | null;
  roots: string[];
  leaves: { id: string; depth: number }[];
  branchPoints: string[];
  compactions: string[];
  labels: Record<string, string>;
  unusable: boolean;
  diagnostics: Diagnostic[];
}

export function inspectSession(file: string, session: LoadedSession): InspectReport {
  const { log, tree } = session;
  const byType: Record<string, number> = {};
  for (const entry of log.entries) {
    const key = entry.type === "message" ? `message:${entry.message?.role}` : entry.type;
    byType[key] = (byType[key] ?? 0) + 1;
  }
  return {
    file,
    header: log.header,
    sourceVersion: log.sourceVersion,
    entries: log.entries.length,
    byType,
    activeLeafId: tree.activeLeafId,
    roots: tree.roots,
    leaves: tree.leaves().map((id) => ({ id, depth: tree.depth(id) })),
    branchPoints: tree.branchPoints(),
    compactions: log.entries.filter((e) => e.type === "compaction").map((e) => e.id),
    labels: Object.fromEntries(tree.labels),
    unusable: log.unusable,
    diagnostics: session.diagnostics,
  };
}

export function formatInspect(report: InspectReport): string {
  const h = report.header;
  const lines = [
    `${report.file}`,
    h
      ? `  session ${h.id}  v${report.sourceVersion}  ${h.timestamp ?? ""}  cwd ${h.cwd ?? "?"}${h.parentSession ? `  parent ${h.parentSession}` : ""}`
      : "  no usable session header",
    `  ${report.entries} entries: ${Object.entries(report.byType)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
    `  roots ${report.roots.length}, leaves ${report.leaves.length}, branch points ${report.branchPoints.length}, compactions ${report.compactions.length}, labels ${Object.keys(report.labels).length}`,
    `  active leaf ${report.activeLeafId ?? "(none)"}`,
  ];
  for (const leaf of report.leaves.slice(0, 30)) {
    lines.push(`    leaf ${leaf.id} depth ${leaf.depth}${leaf.id === report.activeLeafId ? "  (active)" : ""}`);
  }
  if (report.leaves.length > 30) lines.push(`    … ${report.leaves.length - 30} more leaves`);
  if (report.diagnostics.length === 0) lines.push("  no diagnostics");
  for (const d of report.diagnostics) lines.push(`  ${formatDiagnostic(report.file, d)}`);
  return lines.join("\n");
}

/** One file's report; what a file-pool worker runs for a folder. */
export function inspectFile(path: string, shown: string): InspectReport {
  return inspectSession(shown, loadInput(path, shown));
}

/** Why a file is not a session the host can load, for stderr (the report itself stays on stdout). */
function notASession(report: InspectReport): string {
  const fatal = report.diagnostics.find((d) => FATAL_CODES.has(d.code)) ?? report.diagnostics[0];
  const why = fatal ? `${fatal.code}: ${report.file}: not a Pi session file (${fatal.message})` : report.file;
  return `context-kit inspect: ${why}\n`;
}

export const inspectCommand: Command = {
  name: "inspect",
  summary: "Header, entry counts, tree shape and diagnostics of session files (never writes).",
  usage: "context-kit inspect FILE|DIR... [--json] [--strict]",
  options: { ...JSON_OPTION, strict: { type: "boolean", default: false } },
  async run({ values, positionals, cwd, progress }) {
    const files = expandInputs(positionals, cwd);
    const items = files.map((path) => ({ path, shown: relative(cwd, path) || path }));
    const reports = await mapFiles({ module: import.meta.url, name: "inspectFile", fn: inspectFile }, items, {
      progress: (done, total) => progress(done < total ? `inspect ${done}/${total}` : ""),
    });
    const unusable = reports.filter((r) => r.unusable);
    const errors = reports.some((r) => r.diagnostics.some((d) => d.severity === "error"));
    const exitCode = unusable.length > 0 ? 2 : values.strict && errors ? 1 : 0;
    const result: CommandResultWithStderr = {
      exitCode,
      json: isSingleFile(positionals, cwd) ? reports[0] : { files: reports },
      get text() {
        return reports.map(formatInspect).join("\n\n");
      },
    };
    if (unusable.length > 0) result.stderr = unusable.map(notASession).join("");
    return result;
  },
};
