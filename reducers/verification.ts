import { produce } from "immer";
import type { CheckName, CheckStatus } from "./contract/kit-entries.js";
import type { Slice } from "./slice.js";
import type { CheckRecord, VerificationSlice } from "./state.js";

export const CHECKS: readonly CheckName[] = ["app_build", "app_test"];
const MUTATING_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);
/** Automatic verification rounds allowed per user request. */
export const MAX_ROUNDS = 3;

/** Every write or edit lands here: a plain copy, without a draft. */
function nextRevision(state: VerificationSlice): VerificationSlice {
  const next = { ...state };
  next.revision = state.revision + 1;
  next.checks = Object.freeze({});
  next.mutationsThisRequest = state.mutationsThisRequest + 1;
  return next;
}

function isCheck(name: string): name is CheckName {
  return (CHECKS as readonly string[]).includes(name);
}

/** Zero executed tests establish no coverage: a "passing" `app_test` that ran no test is `no_tests`, not a pass. */
function checkStatus(name: CheckName, status: CheckStatus, testsRun: number | undefined): CheckStatus {
  return name === "app_test" && status === "passed" && testsRun === 0 ? "no_tests" : status;
}

/**
 * A check result from the tool's structured details: a flagged error is a failure; a result that reports no known
 * status is an error (it established nothing). The one parser for checks the model ran and checks the kit ran.
 */
export function checkResultOf(
  name: CheckName,
  isError: boolean,
  details: unknown,
): { status: CheckStatus; testsRun?: number } {
  const d = (typeof details === "object" && details !== null ? details : {}) as {
    status?: unknown;
    testsRun?: unknown;
  };
  const known = ["passed", "failed", "no_tests", "error"].includes(d.status as string);
  const testsRun = typeof d.testsRun === "number" ? d.testsRun : undefined;
  const status = checkStatus(name, isError ? "failed" : known ? (d.status as CheckStatus) : "error", testsRun);
  return testsRun !== undefined ? { status, testsRun } : { status };
}

export const verificationSlice: Slice<VerificationSlice> = {
  initial: () => ({ revision: 0, checks: {}, mutationsThisRequest: 0, roundsThisRequest: 0, incomplete: false }),
  on: {
    user(state) {
      if (state.mutationsThisRequest === 0 && state.roundsThisRequest === 0 && !state.incomplete) return state;
      const next = { ...state };
      next.mutationsThisRequest = 0;
      next.roundsThisRequest = 0;
      next.incomplete = false;
      return next;
    },
    toolResult(state, event) {
      if (MUTATING_TOOLS.has(event.toolName)) {
        if (event.isError || !mutated(event.details)) return state;
        return nextRevision(state);
      }
      if (!isCheck(event.toolName)) return state;
      const name = event.toolName;
      const record: CheckRecord = {
        ...checkResultOf(name, event.isError, event.details),
        revision: state.revision,
        entryId: event.entryId,
        by: "model",
      };
      return produce(state, (d) => {
        d.checks[name] = record;
      });
    },
    kit(state, event) {
      const record = event.record;
      if (record.type === "completionReport") {
        return produce(state, (d) => {
          d.roundsThisRequest += 1;
          for (const check of record.details.checks) {
            if (record.details.revision !== state.revision) continue;
            const entry: CheckRecord = {
              status: checkStatus(check.name, check.status, check.testsRun),
              revision: state.revision,
              entryId: event.entryId,
              by: check.by,
            };
            if (check.testsRun !== undefined) entry.testsRun = check.testsRun;
            d.checks[check.name] = entry;
          }
        });
      }
      if (record.type === "verificationIncomplete") {
        if (state.incomplete) return state;
        const next = { ...state };
        next.incomplete = true;
        return next;
      }
      return state;
    },
    // A nested result is not recorded: a write or edit that succeeded counts as a change.
    nestedCall: (state, event) =>
      event.call.status === "ok" && MUTATING_TOOLS.has(event.call.name) ? nextRevision(state) : state,
  },
};

/**
 * Controlled writes say `mutated: true`; their failures (denials, file and input issues) carry a `code` even when the
 * result lacks the error flag. Another write/edit without these details counts as a mutation when it succeeded.
 */
function mutated(details: unknown): boolean {
  if (typeof details !== "object" || details === null) return true;
  const d = details as { mutated?: unknown; code?: unknown };
  if (d.mutated !== undefined) return d.mutated === true;
  return typeof d.code !== "string";
}

/** Checks still owed for the current revision: only after a successful mutation in this request. */
export function missingChecks(state: VerificationSlice): CheckName[] {
  if (state.mutationsThisRequest === 0 || state.revision === 0) return [];
  return CHECKS.filter((name) => state.checks[name]?.revision !== state.revision);
}
