import { relative } from "node:path";
import { foldTree } from "../../fold/session-fold.js";
import { formatStateSummary, type StateSummary, summarizeState } from "../../fold/state-summary.js";
import type { LoadedSession } from "../../session.js";
import { type Command, JSON_OPTION, UsageError } from "../command.js";
import { mapFiles } from "../file-pool.js";
import { expandInputs, isSingleFile, loadInput, singleFile } from "../inputs.js";

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
  const lines = [`${report.file}: ${report.branches.length} branch(es), active leaf ${report.activeLeafId ?? "-"}`];
  for (const b of report.branches) {
    const from = b.forkFromId ? ` forks from ${b.forkFromId}` : "";
    lines.push(`  ${b.active ? "*" : "-"} leaf ${b.leafId} depth ${b.depth}${b.active ? " (active)" : from}`);
    lines.push(...formatStateSummary(b.state));
  }
  return lines.join("\n");
}

/** One file's replay of every branch; what a file-pool worker runs for a folder. */
export function replayFile(path: string, shown: string): ReplayReport & { unusable?: true } {
  const session = loadInput(path, shown);
  const report: ReplayReport & { unusable?: true } = replaySession(shown, session);
  if (session.log.unusable) report.unusable = true;
  return report;
}

export const replayCommand: Command = {
  name: "replay",
  summary: "Replay branches through the reducers and print each branch's state (never writes).",
  usage: "context-kit replay FILE|DIR... [--leaf ID | --all] [--json]",
  options: { ...JSON_OPTION, leaf: { type: "string" }, all: { type: "boolean", default: false } },
  async run({ values, positionals, cwd, progress }) {
    const leaf = values.leaf as string | undefined;
    if (leaf !== undefined && values.all) throw new UsageError("--leaf and --all exclude each other");
    if (isSingleFile(positionals, cwd)) {
      const path = singleFile(positionals, cwd);
      const shown = relative(cwd, path) || path;
      const session = loadInput(path, shown);
      if (leaf !== undefined && !session.tree.get(leaf)) throw new UsageError(`no entry ${leaf} in ${shown}`);
      const report = replaySession(shown, session, leaf === undefined ? undefined : [leaf]);
      return {
        exitCode: session.log.unusable ? 2 : 0,
        json: report,
        get text() {
          return formatReplay(report);
        },
      };
    }
    if (leaf !== undefined) throw new UsageError("--leaf needs exactly one session file");
    const paths = expandInputs(positionals, cwd);
    const items = paths.map((path) => ({ path, shown: relative(cwd, path) || path }));
    const reports = await mapFiles({ module: import.meta.url, name: "replayFile", fn: replayFile }, items, {
      progress: (done, total) => progress(done < total ? `replay ${done}/${total}` : ""),
    });
    return {
      exitCode: reports.some((r) => r.unusable) ? 2 : 0,
      json: { files: reports },
      text: reports.map(formatReplay).join("\n\n"),
    };
  },
};
