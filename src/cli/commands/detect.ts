import { relative } from "node:path";
import type { ToolLoopReport } from "../../../reducers/contract/kit-entries.js";
import { isStalled } from "../../../reducers/recovery.js";
import type { KitState } from "../../../reducers/state.js";
import { toolLoopReport } from "../../../reducers/tool-loop.js";
import { foldTree } from "../../fold/session-fold.js";
import { describeToolLoop } from "../../kit/host-messages.js";
import { type Command, JSON_OPTION, UsageError } from "../command.js";
import { loadInput, singleFile } from "../inputs.js";

export interface DetectReport {
  file: string;
  leafId: string | null;
  stalled: boolean;
  promiseEntryIds: string[];
  requestId: string | null;
  reason: string;
  /** The tool-call loop the leaf ends in, or null. */
  toolLoop: ToolLoopReport | null;
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
  summary: "Say whether a leaf ends in a stall or a tool-call loop, and which entries make it.",
  usage: "context-kit detect FILE [--leaf ID] [--json] [--fail-on-stall]",
  options: { ...JSON_OPTION, leaf: { type: "string" }, "fail-on-stall": { type: "boolean", default: false } },
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
      toolLoop: toolLoopReport(state.toolLoop),
    };
    const text = `${shown} leaf ${leaf ?? "-"}: ${report.stalled ? "STALLED" : "not stalled"} (${report.reason})${
      report.promiseEntryIds.length ? `\n  promise entries: ${report.promiseEntryIds.join(", ")}` : ""
    }\n  tool loop: ${report.toolLoop ? describeToolLoop(report.toolLoop) : "none"}`;
    const failing = report.stalled || report.toolLoop !== null;
    const exitCode = log.unusable ? 2 : failing && values["fail-on-stall"] ? 1 : 0;
    return { exitCode, json: report, text };
  },
};
