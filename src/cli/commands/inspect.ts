import { loadInput } from "../../files/load-input.js";
import { type Diagnostic, FATAL_CODES, formatDiagnostic } from "../../log/diagnostics.js";
import type { SessionHeader } from "../../log/entry-types.js";
import type { LoadedSession } from "../../session.js";
import { capped, plural } from "../../text.js";
import { type Command, FILES_JSON_HELP, FILES_JSON_OPTIONS } from "../command.js";
import { type FileFailure, settle } from "../file-outcome.js";
import { runOverFiles } from "../folder-run.js";

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

/** Diagnostics printed per file; `--json` lists them all. */
export const DIAGNOSTICS_SHOWN = 20;

export function formatInspect(report: InspectReport): string {
  const h = report.header;
  const lines = [
    `${report.file}`,
    h
      ? `  session ${h.id}  v${report.sourceVersion}  ${h.timestamp ?? ""}  cwd ${h.cwd ?? "?"}${h.parentSession ? `  parent ${h.parentSession}` : ""}`
      : "  no usable session header",
    `  ${plural(report.entries, "entry", "entries")}${report.entries > 0 ? ": " : ""}${Object.entries(report.byType)
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
  const diagnostics = report.diagnostics.map((d) => `  ${formatDiagnostic(report.file, d)}`);
  lines.push(
    ...capped(diagnostics, DIAGNOSTICS_SHOWN, (more) => `  … ${plural(more, "more diagnostic")} (--json lists all)`),
  );
  return lines.join("\n");
}

/** One file's report; what a file-pool worker runs for a folder. */
export function inspectFile(path: string, shown: string): InspectReport | FileFailure {
  // Inspect reads the tree's shape, never content: outlines keep the heap small.
  return settle(shown, () => inspectSession(shown, loadInput(path, shown, { outline: true })));
}

/** Why a file is not a session the host can load, for stderr (the report itself stays on stdout). */
function notASession(report: InspectReport): string | null {
  if (!report.unusable) return null;
  const fatal = report.diagnostics.find((d) => FATAL_CODES.has(d.code)) ?? report.diagnostics[0];
  const why = fatal ? `${fatal.code}: ${report.file}: not a Pi session file (${fatal.message})` : report.file;
  return `context-kit inspect: ${why}\n`;
}

export const inspectCommand: Command = {
  name: "inspect",
  summary: "Header, entry counts, tree shape and diagnostics of session files (never writes).",
  usage: "FILE|DIR... [--strict] [--json | --ndjson]",
  description:
    "Reads each session file as the host does and prints its header, entries by type, roots, leaves with their depths, the active leaf and every diagnostic (file, line, code and what the host loses: dropped lines, orphaned branches, lost compactions). A folder stands for every *.jsonl below it; several files run in parallel and end with one summary line. Exit 2 when a file is unreadable or not a Pi session file (the others are still inspected).",
  options: { ...FILES_JSON_OPTIONS, strict: { type: "boolean", default: false } },
  optionHelp: {
    "--strict": "exit 1 when any file has an error diagnostic (a line the host drops or an entry it re-parents)",
    ...FILES_JSON_HELP,
  },
  examples: [
    "context-kit inspect ~/.pi/agent/sessions",
    "context-kit inspect session.jsonl --strict",
    "context-kit inspect sessions/ --ndjson > inspect.ndjson",
  ],
  run(context) {
    const strict = context.values.strict === true;
    return runOverFiles<InspectReport>(
      {
        name: "inspect",
        task: { module: import.meta.url, name: "inspectFile", fn: inspectFile },
        format: formatInspect,
        verdict: (r) => {
          if (r.unusable) return { exitCode: 2, label: "not a session file" };
          const errors = r.diagnostics.some((d) => d.severity === "error");
          return errors ? { exitCode: strict ? 1 : 0, label: "with errors" } : { exitCode: 0, label: "ok" };
        },
        stderr: notASession,
      },
      context,
    );
  },
};
