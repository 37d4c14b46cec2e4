import { foldTree } from "../../fold/session-fold.js";
import { formatStateSummary, type StateSummary, summarizeState } from "../../fold/state-summary.js";
import type { LoadedSession } from "../../session.js";
import { type Command, FILES_JSON_HELP, FILES_JSON_OPTIONS, UsageError } from "../command.js";
import { type FileFailure, settle } from "../file-outcome.js";
import { runOverFiles } from "../folder-run.js";
import { expandInputs, loadUsable, resolveEntryId } from "../inputs.js";
import { plural } from "../text.js";

export interface BranchReplay {
  leafId: string;
  active: boolean;
  depth: number;
  /** Where the branch leaves the active branch; null for the active branch itself. */
  forkFromId: string | null;
  state: StateSummary;
}

export interface ReplayReport {
  file: string;
  activeLeafId: string | null;
  branches: BranchReplay[];
}

export function replaySession(file: string, session: LoadedSession, leaves?: readonly string[]): ReplayReport {
  const { tree } = session;
  const fold = foldTree(tree);
  const active = tree.activeLeafId;
  const branches = (leaves ?? tree.leaves()).map((leafId) => ({
    leafId,
    active: leafId === active,
    depth: tree.depth(leafId),
    forkFromId: leafId === active || active === null ? null : tree.commonAncestor(leafId, active),
    state: summarizeState(fold.stateAt(leafId)),
  }));
  return { file, activeLeafId: active, branches };
}

export function formatReplay(report: ReplayReport): string {
  const lines = [
    `${report.file}: ${plural(report.branches.length, "branch", "branches")}, active leaf ${report.activeLeafId ?? "-"}`,
  ];
  for (const b of report.branches) {
    const from = b.forkFromId ? ` forks from ${b.forkFromId}` : "";
    lines.push(`  ${b.active ? "*" : "-"} leaf ${b.leafId} depth ${b.depth}${b.active ? " (active)" : from}`);
    lines.push(...formatStateSummary(b.state));
  }
  return lines.join("\n");
}

/** One file's replay of every branch (or of one leaf); what a file-pool worker runs for a folder. */
export function replayFile(path: string, shown: string, leaf?: string): ReplayReport | FileFailure {
  return settle(shown, () => {
    const session = loadUsable(path, shown);
    const leaves = leaf === undefined ? undefined : [resolveEntryId(session.tree, leaf, shown)];
    return replaySession(shown, session, leaves);
  });
}

export const replayCommand: Command = {
  name: "replay",
  summary: "Replay every branch through the reducers and print each branch's folded state (never writes).",
  usage: "FILE|DIR... [--leaf ID] [--json | --ndjson]",
  description:
    "Folds each branch of the tree (root to leaf) through the kit's reducers and prints its state: the current request, model, denied scopes, file issues, verification revision and checks, recovery anchor and any stall. The active branch is marked *, others say where they fork from it. A folder stands for every *.jsonl below it. Exit 2 when a file is unreadable or not a Pi session file (the others are still replayed).",
  options: { ...FILES_JSON_OPTIONS, leaf: { type: "string" } },
  optionHelp: {
    "--leaf ID": "replay only the branch that ends at this entry (one file only; a unique prefix of the id is enough)",
    ...FILES_JSON_HELP,
  },
  examples: [
    "context-kit replay session.jsonl",
    "context-kit replay session.jsonl --leaf 0000706a --json",
    "context-kit replay ~/.pi/agent/sessions --ndjson",
  ],
  async run(context) {
    const leaf = context.values.leaf as string | undefined;
    const items = expandInputs(context.positionals, context.cwd);
    if (leaf !== undefined && items.length !== 1) throw new UsageError("--leaf needs exactly one session file");
    return runOverFiles<ReplayReport>(
      {
        name: "replay",
        task:
          leaf === undefined
            ? { module: import.meta.url, name: "replayFile", fn: replayFile }
            : { module: import.meta.url, name: "replayFile", fn: (path, shown) => replayFile(path, shown, leaf) },
        format: formatReplay,
        verdict: () => ({ exitCode: 0, label: "ok" }),
      },
      context,
      items,
    );
  },
};
