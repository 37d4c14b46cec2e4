import type { LoadedSession } from "../session.js";
import { plural } from "../text.js";
import { foldTree } from "./session-fold.js";
import { formatStateSummary, type StateSummary, summarizeState } from "./state-summary.js";

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
