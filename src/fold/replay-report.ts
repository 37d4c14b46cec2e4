import type { ToolLoopReport } from "../../reducers/contract/kit-entries.js";
import type { KitState, NestedCallSeen } from "../../reducers/state.js";
import { type ToolLoopEpisodeReport, toolLoopEpisodes, toolLoopReport } from "../../reducers/tool-loop.js";
import { describeToolLoop } from "../kit/host-messages.js";
import type { LoadedSession } from "../session.js";
import { plural } from "../text.js";
import type { StateSource } from "./branch-fold.js";
import { branchShape } from "./branch-shapes.js";
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
  /** Every tool-loop episode on the branch, escaped or not, oldest first. */
  toolLoopEpisodes: ToolLoopEpisodeReport[];
  /** Calls in those episodes that repeated one already made in the same episode. */
  toolLoopWastedCalls: number;
  /** Calls tools made to other tools (Pi 0.99+ `nestedCalls`); absent when the branch has none. */
  nestedCalls?: NestedCallsSummary;
}

/** The nested calls of a branch: counts, the latest calls, and the results whose record the host cut short. */
export interface NestedCallsSummary {
  calls: number;
  failed: number;
  unfinished: number;
  /** Tool results whose nested record is incomplete: shown as such, never guessed. */
  recordIncomplete: string[];
  recent: NestedCallSeen[];
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
  toolLoopEpisodes: ToolLoopEpisodeReport[];
  toolLoopWastedCalls: number;
  nestedCalls?: NestedCallsSummary;
}

/** Where `replaySession` reads each leaf's summary from. */
export interface LeafSummaries {
  summaryAt(leafId: string): LeafSummary;
}

/** The summary of the state after `leafId`. */
export function leafSummary(states: StateSource, leafId: string): LeafSummary {
  const state = states.stateAt(leafId);
  const episodes = toolLoopEpisodes(state.toolLoop);
  const summary: LeafSummary = {
    state: summarizeState(state),
    toolLoop: toolLoopSummary(state.toolLoop),
    toolLoopEpisodes: episodes,
    toolLoopWastedCalls: episodes.reduce((sum, e) => sum + e.wastedCalls, 0),
  };
  const nested = state.nested;
  if (nested.calls > 0 || nested.incompleteRecordIds.length > 0) {
    const { calls, failed, unfinished, recent } = nested;
    summary.nestedCalls = { calls, failed, unfinished, recordIncomplete: [...nested.incompleteRecordIds], recent };
  }
  return summary;
}

/** One branch of the replay: where it sits in the tree and the summary of its leaf's state. */
export function branchReplay(
  shape: Pick<BranchReplay, "leafId" | "active" | "depth" | "forkFromId">,
  summary: LeafSummary,
): BranchReplay {
  const { state, toolLoop, toolLoopEpisodes, toolLoopWastedCalls, nestedCalls } = summary;
  const branch: BranchReplay = { ...shape, state, toolLoop, toolLoopEpisodes, toolLoopWastedCalls };
  if (nestedCalls) branch.nestedCalls = nestedCalls;
  return branch;
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
    const { depth, forkFromId } = branchShape(tree.links, leafId, active);
    return branchReplay({ leafId, active: leafId === active, depth, forkFromId }, summaries.summaryAt(leafId));
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
    if (b.toolLoopEpisodes.length > 0) {
      const count = plural(b.toolLoopEpisodes.length, "episode", "episodes");
      lines.push(`    tool-loop ${count} on the branch, ${plural(b.toolLoopWastedCalls, "call", "calls")} wasted`);
      for (const e of b.toolLoopEpisodes) {
        const where = e.atLeaf ? " (the branch ends in it)" : "";
        lines.push(`      ${describeToolLoop(e)}; ${e.callCount} calls${where}`);
      }
    }
    if (b.nestedCalls) lines.push(formatNestedCalls(b.nestedCalls));
  }
  return lines.join("\n");
}

function formatNestedCalls(n: NestedCallsSummary): string {
  const failed = n.failed > 0 ? `, ${n.failed} failed` : "";
  const unfinished = n.unfinished > 0 ? `, ${n.unfinished} unfinished` : "";
  const cut = n.recordIncomplete.length > 0 ? `; record incomplete at ${n.recordIncomplete.join(",")}` : "";
  const latest = n.recent.map((c) => `${c.tool} ${c.status}`).join(", ");
  return `    nested calls ${n.calls}${failed}${unfinished} (latest: ${latest || "-"})${cut}`;
}
