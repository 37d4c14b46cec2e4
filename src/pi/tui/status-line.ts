import { CHECKS, MAX_ROUNDS } from "../../../reducers/verification.js";
import type { StateSummary } from "../../fold/state-summary.js";

/** What the footer needs beyond the folded state at the leaf. */
export interface StatusInputs {
  state: StateSummary;
  /** Denied scopes whose latest denial falls in the current user request. */
  deniedThisRequest: readonly string[];
  /** True when the anchor on the branch was set in the current request. */
  recoveredThisRequest: boolean;
  /** True when app_build/app_test are registered, so edits are verified. */
  verifies: boolean;
  /** The tool-call loop the branch ends in, and what the kit did about it in this request. */
  toolLoop: { kind: string; tools: readonly string[]; marked: boolean; stopped: boolean } | null;
}

const STATUS_WORD: Record<string, string> = { passed: "ok", failed: "FAILED", no_tests: "no tests", error: "ERROR" };

function verification(s: StateSummary["verification"], verifies: boolean): string {
  if (!verifies) return `r${s.revision} (no checks registered)`;
  const checks = CHECKS.map((name) => {
    const check = s.checks[name];
    return `${name.replace("app_", "")} ${check ? (STATUS_WORD[check.status] ?? check.status) : "-"}`;
  }).join(", ");
  const verdict = s.incomplete
    ? "INCOMPLETE"
    : CHECKS.every((name) => s.checks[name]?.status === "passed")
      ? "verified"
      : s.revision === 0
        ? "no edits"
        : "unverified";
  return `r${s.revision} ${verdict} (${checks}; rounds ${s.roundsThisRequest}/${MAX_ROUNDS})`;
}

function recovery(inputs: StatusInputs): string {
  if (inputs.state.recovery.stalled) return "STALLED";
  return inputs.recoveredThisRequest ? "recovered this request" : "none";
}

function denied(scopes: readonly string[]): string {
  if (scopes.length === 0) return "none denied";
  const names = scopes.slice(0, 2).map((scope) => scope.split("/").pop() || scope);
  const more = scopes.length > 2 ? ` +${scopes.length - 2}` : "";
  return `denied ${names.join(", ")}${more}`;
}

function toolLoop(loop: StatusInputs["toolLoop"]): string {
  if (!loop) return "none";
  const what = `${loop.kind} (${[...new Set(loop.tools)].join(", ")})`;
  return loop.stopped ? `STOPPED ${what}` : loop.marked ? `${what}, marked` : what;
}

/** One short footer line: protection, denials this request, verification, recovery, tool loops. */
export function statusLine(inputs: StatusInputs): string {
  return [
    `kit: protected, ${denied(inputs.deniedThisRequest)}`,
    `verify ${verification(inputs.state.verification, inputs.verifies)}`,
    `recovery ${recovery(inputs)}`,
    `loop ${toolLoop(inputs.toolLoop)}`,
  ].join(" | ");
}
