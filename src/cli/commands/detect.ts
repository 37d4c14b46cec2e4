import { isStalled } from "../../../reducers/recovery.js";
import type { KitState } from "../../../reducers/state.js";
import { foldTree } from "../../fold/session-fold.js";
import { type Command, JSON_HELP, JSON_OPTION } from "../command.js";
import { loadUsable, resolveEntryId, singleFile } from "../inputs.js";

export interface DetectReport {
  file: string;
  leafId: string | null;
  stalled: boolean;
  promiseEntryIds: string[];
  requestId: string | null;
  reason: string;
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
  usage: "FILE [--leaf ID] [--fail-on-stall] [--json]",
  description:
    'Folds the branch to the leaf (the active leaf unless --leaf) and says whether it ends in a stall: three similar action-promise replies ("Let me check the file.", "我来检查一下编译错误。") with no tool call or result between them, or a STALLED_NO_TOOL_PROGRESS stop after a recovery. Names the replies that make the run. Exit 0 either way (1 with --fail-on-stall), 2 when the file is unreadable or not a Pi session file.',
  options: { ...JSON_OPTION, leaf: { type: "string" }, "fail-on-stall": { type: "boolean", default: false } },
  optionHelp: {
    "--leaf ID":
      "look at the branch that ends at this entry instead of the active leaf (a unique prefix of the id is enough)",
    "--fail-on-stall": "exit 1 when the leaf is stalled, for scripts and CI",
    ...JSON_HELP,
  },
  examples: ["context-kit detect session.jsonl", "context-kit detect session.jsonl --leaf 00007065 --fail-on-stall"],
  run({ values, positionals, cwd }) {
    const { path, shown } = singleFile(positionals, cwd);
    const { tree } = loadUsable(path, shown);
    const given = values.leaf as string | undefined;
    const leaf = given === undefined ? tree.activeLeafId : resolveEntryId(tree, given, shown);
    const state = foldTree(tree).stateAt(leaf);
    const report: DetectReport = {
      file: shown,
      leafId: leaf,
      stalled: isStalled(state.recovery),
      promiseEntryIds: [...state.recovery.run.promiseEntryIds],
      requestId: state.request.currentRequestId,
      reason: stallReason(state),
    };
    const text = `${shown} leaf ${leaf ?? "-"}: ${report.stalled ? "STALLED" : "not stalled"} (${report.reason})${
      report.promiseEntryIds.length ? `\n  promise entries: ${report.promiseEntryIds.join(", ")}` : ""
    }`;
    const exitCode = report.stalled && values["fail-on-stall"] ? 1 : 0;
    return { exitCode, json: report, text };
  },
};
