import type { CheckName } from "../../reducers/contract/kit-entries.js";
import { isStalled } from "../../reducers/recovery.js";
import type { KitState } from "../../reducers/state.js";

export interface CheckSummary {
  status: string;
  revision: number;
  entryId: string;
  by: "model" | "kit";
  testsRun?: number;
}

/** The per-branch state as `replay --json` prints it (a contract). */
export interface StateSummary {
  request: { currentRequestId: string | null };
  session: { model: string | null; thinkingLevel: string };
  denials: { scope: string; status: string; count: number; firstEntryId: string; lastEntryId: string }[];
  fileIssues: { path: string; code: string; entryId: string }[];
  verification: {
    revision: number;
    checks: Partial<Record<CheckName, CheckSummary>>;
    roundsThisRequest: number;
    incomplete: boolean;
  };
  recovery: { anchorId: string | null; recoveriesThisRequest: number; stalled: boolean; promiseEntryIds: string[] };
}

export function summarizeState(state: KitState): StateSummary {
  return {
    request: summarizeSlice.request(state),
    session: summarizeSlice.session(state),
    denials: summarizeSlice.denials(state),
    fileIssues: summarizeSlice.fileIssues(state),
    verification: summarizeSlice.verification(state),
    recovery: summarizeSlice.recovery(state),
  };
}

/** Each part of `summarizeState` on its own, for a reader that needs one. */
export const summarizeSlice: { [K in keyof StateSummary]: (state: KitState) => StateSummary[K] } = {
  request: (state) => ({ currentRequestId: state.request.currentRequestId }),
  session: (state) => {
    const model = state.session.model;
    return { model: model ? `${model.provider}/${model.modelId}` : null, thinkingLevel: state.session.thinkingLevel };
  },
  denials: (state) =>
    Object.values(state.denials).map(({ scope, status, count, firstEntryId, lastEntryId }) => ({
      scope,
      status,
      count,
      firstEntryId,
      lastEntryId,
    })),
  fileIssues: (state) => Object.values(state.fileIssues).map(({ path, code, entryId }) => ({ path, code, entryId })),
  verification: (state) => ({
    revision: state.verification.revision,
    checks: { ...state.verification.checks },
    roundsThisRequest: state.verification.roundsThisRequest,
    incomplete: state.verification.incomplete,
  }),
  recovery: (state) => ({
    anchorId: state.recovery.anchorId,
    recoveriesThisRequest: state.recovery.recoveriesThisRequest,
    stalled: isStalled(state.recovery),
    promiseEntryIds: [...state.recovery.run.promiseEntryIds],
  }),
};

/** A few human lines for one branch's state. */
export function formatStateSummary(s: StateSummary, indent = "    "): string[] {
  const lines: string[] = [];
  lines.push(`${indent}request ${s.request.currentRequestId ?? "-"}  model ${s.session.model ?? "-"}`);
  const checks = Object.entries(s.verification.checks)
    .map(
      ([name, c]) =>
        `${name} ${c.status}${c.testsRun !== undefined ? ` (${c.testsRun} ${c.testsRun === 1 ? "test" : "tests"})` : ""}`,
    )
    .join(", ");
  lines.push(
    `${indent}verification r${s.verification.revision}${checks ? `: ${checks}` : ""}; rounds ${s.verification.roundsThisRequest}${s.verification.incomplete ? "; INCOMPLETE" : ""}`,
  );
  if (s.denials.length > 0) {
    lines.push(`${indent}denied: ${s.denials.map((d) => `${d.scope} (${d.status}, ${d.count}x)`).join(", ")}`);
  }
  if (s.fileIssues.length > 0) {
    lines.push(`${indent}file issues: ${s.fileIssues.map((f) => `${f.path} ${f.code}`).join(", ")}`);
  }
  const r = s.recovery;
  const run = r.promiseEntryIds.length > 0 ? `; promise run ${r.promiseEntryIds.join(",")}` : "";
  lines.push(
    `${indent}recovery anchor ${r.anchorId ?? "-"}; recoveries ${r.recoveriesThisRequest}${r.stalled ? "; STALLED" : ""}${run}`,
  );
  return lines;
}
