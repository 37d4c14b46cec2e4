import { isStalled } from "../../reducers/recovery.js";
import type { KitState } from "../../reducers/state.js";
import { toolLoopEpisodes, toolLoopReport } from "../../reducers/tool-loop.js";
import type { Diagnostic } from "../log/diagnostics.js";

export type VerificationOutcome =
  | "passed"
  | "failed"
  | "incomplete"
  | "no tests"
  | "unverified"
  | "no checks recorded"
  | "no changes";

/** One line per session in a folder's index (and in `report --json`). */
export interface SessionSummary {
  entries: number;
  branches: number;
  activeLeafId: string | null;
  /** Validated STALLED_NO_TOOL_PROGRESS entries anywhere in the file. */
  stallStops: number;
  /** Leaves whose branch currently ends in a stall. */
  stalledLeaves: number;
  /** Validated recovery markers anywhere in the file. */
  recoveries: number;
  /** Leaves whose branch ends in a tool-call loop. */
  toolLoopLeaves: number;
  /** Tool-loop episodes on any branch, escaped or not (each once), and the calls they wasted. */
  toolLoopEpisodes: number;
  toolLoopWastedCalls: number;
  /** Tool results that record a denial, and the distinct scopes they name. */
  denials: number;
  deniedScopes: number;
  /** On the active branch. */
  verification: { outcome: VerificationOutcome; revision: number };
  diagnostics: { errors: number; warnings: number; infos: number };
  unusable: boolean;
}

export interface SummaryCounts {
  entries: number;
  branches: number;
  activeLeafId: string | null;
  stallStops: number;
  recoveries: number;
  denials: number;
  deniedScopes: number;
  unusable: boolean;
}

function verificationOutcome(state: KitState): VerificationOutcome {
  const v = state.verification;
  if (v.incomplete) return "incomplete";
  const checks = Object.values(v.checks);
  if (checks.some((c) => c.status === "failed" || c.status === "error")) return "failed";
  const build = v.checks.app_build?.status;
  const test = v.checks.app_test?.status;
  if (build === "passed" && test === "passed") return "passed";
  if (build === "passed" && test === "no_tests") return "no tests";
  if (checks.length > 0) return "unverified";
  return v.revision === 0 ? "no changes" : "no checks recorded";
}

export function summarizeSession(
  counts: SummaryCounts,
  activeState: KitState,
  leafStates: Iterable<KitState>,
  diagnostics: readonly Diagnostic[],
): SessionSummary {
  let stalledLeaves = 0;
  let toolLoopLeaves = 0;
  const episodes = new Map<string, number>();
  for (const state of leafStates) {
    if (isStalled(state.recovery)) stalledLeaves++;
    if (toolLoopReport(state.toolLoop)) toolLoopLeaves++;
    for (const e of toolLoopEpisodes(state.toolLoop)) {
      const key = `${e.kind} ${e.entryIds[0]}`;
      episodes.set(key, Math.max(episodes.get(key) ?? 0, e.wastedCalls));
    }
  }
  const bySeverity = { errors: 0, warnings: 0, infos: 0 };
  for (const d of diagnostics) {
    if (d.severity === "error") bySeverity.errors++;
    else if (d.severity === "warning") bySeverity.warnings++;
    else bySeverity.infos++;
  }
  return {
    ...counts,
    stalledLeaves,
    toolLoopLeaves,
    toolLoopEpisodes: episodes.size,
    toolLoopWastedCalls: [...episodes.values()].reduce((sum, n) => sum + n, 0),
    verification: { outcome: verificationOutcome(activeState), revision: activeState.verification.revision },
    diagnostics: bySeverity,
  };
}

/** How an outcome is shown: ordinary Pi sessions that never ran the kit's checks are not flagged. */
export const VERIFICATION_TONE: Record<VerificationOutcome, "" | "good" | "bad" | "warn"> = {
  passed: "good",
  failed: "bad",
  incomplete: "bad",
  "no tests": "warn",
  unverified: "warn",
  "no checks recorded": "",
  "no changes": "",
};

/** The outcome with its revision explained: rN counts the successful file changes (write, edit) on the branch. */
export function verificationText(v: SessionSummary["verification"]): string {
  if (v.outcome === "no changes") return "no changes (r0)";
  return `${v.outcome} (r${v.revision}: ${count(v.revision, "file change")})`;
}

export const REVISION_NOTE =
  "rN: the active branch changed files N times (successful write or edit); app_build and app_test results count for the revision they ran at";

/** What a stall stop is, where the count is shown. */
export const STALL_STOP = "runs the kit stopped when a reply after a recovery again only announced an action";

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function formatSummary(s: SessionSummary): string {
  if (s.unusable) return `not usable by the host: ${count(s.diagnostics.errors, "error")}`;
  const d = s.diagnostics;
  const diagnostics =
    d.errors + d.warnings === 0 ? "no diagnostics" : `${count(d.errors, "error")}, ${count(d.warnings, "warning")}`;
  return [
    count(s.entries, "entry", "entries"),
    count(s.branches, "branch", "branches"),
    `${count(s.stallStops, "stall stop")} (${STALL_STOP}), ${count(s.stalledLeaves, "stalled leaf", "stalled leaves")}`,
    count(s.recoveries, "recovery", "recoveries"),
    count(s.toolLoopLeaves, "leaf in a tool loop", "leaves in a tool loop"),
    `${count(s.toolLoopEpisodes, "tool-loop episode")} (${count(s.toolLoopWastedCalls, "call")} wasted)`,
    `${count(s.denials, "denial")} in ${count(s.deniedScopes, "scope")}`,
    `verification ${verificationText(s.verification)}`,
    diagnostics,
  ].join(" · ");
}
