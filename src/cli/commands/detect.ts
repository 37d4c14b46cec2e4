import { relative } from "node:path";
import { isStalled } from "../../../reducers/recovery.js";
import type { KitState } from "../../../reducers/state.js";
import { type ExplainedStep, explainPath } from "../../detect/explain.js";
import { runEventsOf } from "../../fold/run-events.js";
import { foldTree } from "../../fold/session-fold.js";
import { type Command, JSON_OPTION, UsageError } from "../command.js";
import { loadInput, singleFile } from "../inputs.js";

export interface DetectReport {
  file: string;
  leafId: string | null;
  stalled: boolean;
  promiseEntryIds: string[];
  requestId: string | null;
  reason: string;
  /** With --explain: each step of the leaf's recent path, as the detector saw it. */
  explain?: ExplainedStep[];
}

export function stallReason(state: KitState): string {
  const r = state.recovery;
  if (r.stopped) return "STALLED_NO_TOOL_PROGRESS was recorded after a recovery in this request";
  if (r.run.stalled) {
    return `${r.run.promiseEntryIds.length} similar action-promise replies with no tool call or result between them`;
  }
  if (r.run.promiseEntryIds.length > 0) {
    return `${r.run.promiseEntryIds.length} recent action-promise replies without tools; not a stall yet`;
  }
  return "no run of action-promise replies";
}

export const detectCommand: Command = {
  name: "detect",
  summary: "Say whether a leaf ends in a stall: similar action-promise replies without tool progress.",
  usage: "context-kit detect FILE [--leaf ID] [--explain] [--json] [--fail-on-stall]",
  options: {
    ...JSON_OPTION,
    leaf: { type: "string" },
    explain: { type: "boolean", default: false },
    "fail-on-stall": { type: "boolean", default: false },
  },
  run({ values, positionals, cwd }) {
    const path = singleFile(positionals, cwd);
    const shown = relative(cwd, path) || path;
    const { tree, log } = loadInput(path, shown);
    const leaf = (values.leaf as string | undefined) ?? tree.activeLeafId;
    if (leaf !== null && !tree.get(leaf)) throw new UsageError(`no entry ${leaf} in ${shown}`);
    const state = foldTree(tree).stateAt(leaf);
    const report: DetectReport = {
      file: shown,
      leafId: leaf,
      stalled: isStalled(state.recovery),
      promiseEntryIds: [...state.recovery.run.promiseEntryIds],
      requestId: state.request.currentRequestId,
      reason: stallReason(state),
    };
    if (values.explain && leaf !== null) report.explain = explainPath(runEventsOf(tree.pathTo(leaf))).steps;
    const text = `${shown} leaf ${leaf ?? "-"}: ${report.stalled ? "STALLED" : "not stalled"} (${report.reason})${
      report.promiseEntryIds.length ? `\n  promise entries: ${report.promiseEntryIds.join(", ")}` : ""
    }${report.explain ? `\n${explainLines(report.explain).join("\n")}` : ""}`;
    const exitCode = log.unusable ? 2 : report.stalled && values["fail-on-stall"] ? 1 : 0;
    return { exitCode, json: report, text };
  },
};

/** One line per step: entry, label, intents, similarity to the run (* marks run members), excerpt. */
export function explainLines(steps: readonly ExplainedStep[]): string[] {
  return steps.map((s) => {
    const intents = s.intents.map((i) => `${i.action}(${i.object.join(", ") || "-"})`).join(" ");
    const similarity = s.similarity === null ? "" : ` sim ${s.similarity.toFixed(2)}`;
    const excerpt = s.excerpt ? `  "${s.excerpt}"` : "";
    return `  ${s.inRun ? "*" : " "} ${(s.entryId ?? "").padEnd(8)} ${s.label}${intents ? ` ${intents}` : ""}${similarity}${excerpt}`;
  });
}
