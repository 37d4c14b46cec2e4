import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { ToolLoopReport } from "../../../reducers/contract/kit-entries.js";
import { isStalled } from "../../../reducers/recovery.js";
import type { KitState } from "../../../reducers/state.js";
import { toolLoopReport } from "../../../reducers/tool-loop.js";
import { type ExplainedStep, explainPath } from "../../detect/explain.js";
import { learnedNote } from "../../detect/promise-run.js";
import { loadUsable } from "../../files/load-input.js";
import { ReadingFold } from "../../fold/reading-fold.js";
import { runEventsOf } from "../../fold/run-events.js";
import { foldTree } from "../../fold/session-fold.js";
import { describeToolLoop } from "../../kit/host-messages.js";
import { type Command, FILES_JSON_HELP, FILES_JSON_OPTIONS, UsageError } from "../command.js";
import { type FileFailure, settle } from "../file-outcome.js";
import { runOverFiles } from "../folder-run.js";
import { resolveEntryId, singleFile } from "../inputs.js";

export interface DetectReport {
  file: string;
  leafId: string | null;
  stalled: boolean;
  promiseEntryIds: string[];
  requestId: string | null;
  reason: string;
  /** The tool-call loop the leaf ends in, or null. */
  toolLoop: ToolLoopReport | null;
  /** With --explain: each step of the leaf's recent path, as the detector saw it. */
  explain?: ExplainedStep[];
}

export function stallReason(state: KitState): string {
  const r = state.recovery;
  if (r.stopped) return "STALLED_NO_TOOL_PROGRESS was recorded after a recovery in this request";
  if (r.run.stalled) {
    return `${r.run.promiseEntryIds.length} similar action-promise replies with no tool call or result between them${learnedNote(r.run)}`;
  }
  if (r.run.promiseEntryIds.length > 0) {
    return `${r.run.promiseEntryIds.length} recent action-promise replies without tools; not a stall yet`;
  }
  return "no run of action-promise replies";
}

export const detectCommand: Command = {
  name: "detect",
  summary: "Say whether a leaf ends in a stall or a tool-call loop, and which entries make it.",
  usage: "FILE|DIR... [--leaf ID] [--explain] [--fail-on-stall] [--json | --ndjson]",
  description:
    'Folds the branch to the leaf (the active leaf unless --leaf) and says whether it ends in a stall: three action-promise replies about the same action on the same object ("Let me check the compiler errors.", "我来检查一下编译错误。", "讓我再檢查一次編譯錯誤") with no tool call or result between them, or a STALLED_NO_TOOL_PROGRESS stop after a recovery. Names the replies that make the run. Also says whether it ends in a tool-call loop (toolLoop: repeat, ping-pong, repeated-failure or post-compaction) and names its calls and entries. A folder (or several files) gives one line per file, each about its active leaf (--json: {files, summary}; --ndjson: one line per file). Exit 0 either way (1 with --fail-on-stall), 2 when a file is unreadable or not a Pi session file.',
  options: {
    ...FILES_JSON_OPTIONS,
    leaf: { type: "string" },
    explain: { type: "boolean", default: false },
    "fail-on-stall": { type: "boolean", default: false },
  },
  optionHelp: {
    "--leaf ID":
      "look at the branch that ends at this entry instead of the active leaf (a unique prefix of the id is enough)",
    "--explain":
      "label each reply on the leaf's recent path (promise, deliverable, question, refusal, blocker, status ...) with the action and object found and its similarity to the run",
    "--fail-on-stall": "exit 1 when the leaf is stalled or ends in a tool-call loop, for scripts and CI",
    ...FILES_JSON_HELP,
    "--json": "print one JSON document: one file's report, or {files: [...], summary} for several files or a folder",
  },
  examples: [
    "context-kit detect session.jsonl",
    "context-kit detect evidence-samples/branched-school-session.jsonl --leaf 00007065 --fail-on-stall",
    "context-kit detect session.jsonl --explain",
    "context-kit detect ~/.pi/agent/sessions --ndjson",
  ],
  run(context) {
    const { values, positionals, cwd } = context;
    if (positionals.length > 1 || (positionals.length === 1 && isFolder(resolve(cwd, positionals[0] as string)))) {
      if (values.leaf !== undefined || values.explain)
        throw new UsageError("--leaf and --explain need exactly one session file");
      return runOverFiles<DetectReport>(
        {
          name: "detect",
          task: { module: import.meta.url, name: "detectFile", fn: detectFile },
          format: detectLine,
          separator: "\n",
          verdict: (r) =>
            (r.stalled || r.toolLoop !== null) && values["fail-on-stall"]
              ? { exitCode: 1, label: "stalled or looping" }
              : { exitCode: 0, label: r.stalled || r.toolLoop ? "stalled or looping" : "ok" },
        },
        context,
      );
    }
    if (values.ndjson) throw new UsageError("--ndjson is for several files or a folder; use --json for one file");
    const { path, shown } = singleFile(positionals, cwd);
    // Folded while read (only --explain reads the path's entries again); a file the host did not write in order is
    // read again and folded whole.
    const fold = new ReadingFold(path);
    const read = loadUsable(path, shown, fold.readOptions());
    const exact = fold.matches(read.tree) && !values.explain;
    const { tree } = exact ? read : loadUsable(path, shown);
    const given = values.leaf as string | undefined;
    const leaf = given === undefined ? tree.activeLeafId : resolveEntryId(tree.byId, given, shown);
    const report = reportAt(shown, leaf, exact ? fold.stateAt(leaf) : foldTree(tree).stateAt(leaf));
    if (values.explain && leaf !== null) report.explain = explainPath(runEventsOf(tree.pathTo(leaf))).steps;
    const text = `${shown} leaf ${leaf ?? "-"}: ${report.stalled ? "STALLED" : "not stalled"} (${report.reason})${
      report.promiseEntryIds.length ? `\n  promise entries: ${report.promiseEntryIds.join(", ")}` : ""
    }\n  tool loop: ${report.toolLoop ? describeToolLoop(report.toolLoop) : "none"}${
      report.explain ? `\n${explainLines(report.explain).join("\n")}` : ""
    }`;
    const exitCode = (report.stalled || report.toolLoop !== null) && values["fail-on-stall"] ? 1 : 0;
    return { exitCode, json: report, text };
  },
};

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** One file's report on its active leaf, for a folder run (what a file-pool worker runs). */
export function detectFile(path: string, shown: string): DetectReport | FileFailure {
  return settle(shown, () => {
    const fold = new ReadingFold(path);
    const read = loadUsable(path, shown, fold.readOptions());
    const exact = fold.matches(read.tree);
    const { tree } = exact ? read : loadUsable(path, shown);
    const leaf = tree.activeLeafId;
    return reportAt(shown, leaf, exact ? fold.stateAt(leaf) : foldTree(tree).stateAt(leaf));
  });
}

/** What `detect` says of the state at a leaf. */
function reportAt(file: string, leafId: string | null, state: KitState): DetectReport {
  return {
    file,
    leafId,
    stalled: isStalled(state.recovery),
    promiseEntryIds: [...state.recovery.run.promiseEntryIds],
    requestId: state.request.currentRequestId,
    reason: stallReason(state),
    toolLoop: toolLoopReport(state.toolLoop),
  };
}

/** One line for one file of a folder run. */
export function detectLine(r: DetectReport): string {
  const loop = r.toolLoop ? `; tool loop ${describeToolLoop(r.toolLoop)}` : "";
  return `${r.file} leaf ${r.leafId ?? "-"}: ${r.stalled ? "STALLED" : "not stalled"}${loop}`;
}

/**
 * Per step: entry, label, intents, similarity to the run (* marks run members), excerpt; under a reply, the reason
 * for its label, as `--json` gives it.
 */
export function explainLines(steps: readonly ExplainedStep[]): string[] {
  return steps.flatMap((s) => {
    const intents = s.intents.map((i) => `${i.action}(${i.object.join(", ") || "-"})`).join(" ");
    const similarity = s.similarity === null ? "" : ` sim ${s.similarity.toFixed(2)}`;
    const excerpt = s.excerpt ? `  "${s.excerpt}"` : "";
    const line = `  ${s.inRun ? "*" : " "} ${(s.entryId ?? "").padEnd(8)} ${s.label}${intents ? ` ${intents}` : ""}${similarity}${excerpt}`;
    return s.entryId !== null && s.reason ? [line, `             why: ${s.reason}`] : [line];
  });
}
