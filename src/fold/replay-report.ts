import type { ToolLoopReport } from "../../reducers/contract/kit-entries.js";
import type { KitState } from "../../reducers/state.js";
import { toolLoopReport } from "../../reducers/tool-loop.js";
import { describeToolLoop } from "../kit/host-messages.js";
import type { LoadedSession } from "../session.js";
import { plural } from "../text.js";
import type { StateSource } from "./branch-fold.js";
import { foldTree } from "./session-fold.js";
import { formatStateSummary, type StateSummary, summarizeState } from "./state-summary.js";

export interface BranchReplay {
  leafId: string;
  active: boolean;
  depth: number;
  /** Where the branch leaves the active branch; null for the active branch itself. */
  forkFromId: string | null;
  state: StateSummary;
  /** The tool-call loop the branch ends in, with the loop markers of its current request. */
  toolLoop: { loop: ToolLoopReport | null; markerId: string | null; markersThisRequest: number };
}

export interface ReplayReport {
  file: string;
  activeLeafId: string | null;
  branches: BranchReplay[];
  /** Error diagnostics the reader found (lines the host drops, entries it re-parents): `inspect` lists them. */
  readerErrors: number;
}

/** What `replay` prints of one leaf's state. */
export interface LeafSummary {
  state: StateSummary;
  toolLoop: BranchReplay["toolLoop"];
}

/** Where `replaySession` reads each leaf's summary from. */
export interface LeafSummaries {
  summaryAt(leafId: string): LeafSummary;
}

/** The summary of the state after `leafId`. */
export function leafSummary(states: StateSource, leafId: string): LeafSummary {
  const state = states.stateAt(leafId);
  return { state: summarizeState(state), toolLoop: toolLoopSummary(state.toolLoop) };
}

/** Summaries read from a fold (a `ReadingFold` of the same read, or the tree's own). */
export function summariesOf(states: StateSource): LeafSummaries {
  return { summaryAt: (leafId) => leafSummary(states, leafId) };
}

/**
 * `summaries`: where leaf states come from (a `ReadingFold` of the same read, or a fold worker's summaries), else
 * the tree is folded here.
 */
export function replaySession(
  file: string,
  session: LoadedSession,
  leaves?: readonly string[],
  summaries: LeafSummaries = summariesOf(foldTree(session.tree)),
): ReplayReport {
  const { tree } = session;
  const active = tree.activeLeafId;
  const branches = (leaves ?? tree.leaves()).map((leafId) => {
    const summary = summaries.summaryAt(leafId);
    return {
      leafId,
      active: leafId === active,
      depth: tree.depth(leafId),
      forkFromId: leafId === active || active === null ? null : tree.commonAncestor(leafId, active),
      state: summary.state,
      toolLoop: summary.toolLoop,
    };
  });
  const readerErrors = session.diagnostics.filter((d) => d.severity === "error").length;
  return { file, activeLeafId: active, branches, readerErrors };
}

function toolLoopSummary(slice: KitState["toolLoop"]): BranchReplay["toolLoop"] {
  return { loop: toolLoopReport(slice), markerId: slice.markerId, markersThisRequest: slice.markersThisRequest };
}

export function formatReplay(report: ReplayReport): string {
  const lines = [
    `${report.file}: ${plural(report.branches.length, "branch", "branches")}, active leaf ${report.activeLeafId ?? "-"}${
      report.readerErrors ? `, ${plural(report.readerErrors, "reader error")} (inspect lists them)` : ""
    }`,
  ];
  for (const b of report.branches) {
    const from = b.forkFromId ? ` forks from ${b.forkFromId}` : "";
    lines.push(`  ${b.active ? "*" : "-"} leaf ${b.leafId} depth ${b.depth}${b.active ? " (active)" : from}`);
    lines.push(...formatStateSummary(b.state));
    const t = b.toolLoop;
    const marker = t.markerId ? `; marker ${t.markerId} (${t.markersThisRequest} in this request)` : "";
    lines.push(`    tool loop ${t.loop ? describeToolLoop(t.loop) : "-"}${marker}`);
  }
  return lines.join("\n");
}
