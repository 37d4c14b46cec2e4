import {
  type CheckName,
  type CheckOutcome,
  type CompletionReportDetails,
  INCOMPLETE_CODE,
  KIT,
  RECOVERED_PREFIX,
  type RecoveryMarkerDetails,
  STALLED_CODE,
  type StallStopDetails,
  TOOL_LOOP_PREFIX,
  TOOL_LOOP_STOP_CODE,
  type ToolLoopMarkerDetails,
  type ToolLoopReport,
  type ToolLoopStopDetails,
  type VerificationIncompleteDetails,
} from "../../reducers/contract/kit-entries.js";

/** A visible host message: what the kit appends as a `custom_message` entry. */
export interface HostMessage<D> {
  customType: string;
  content: string;
  display: true;
  details: D;
}

export function recoveryMarker(details: RecoveryMarkerDetails): HostMessage<RecoveryMarkerDetails> {
  const content = [
    `${RECOVERED_PREFIX}: the host detected a loop of replies that announced actions without taking them.`,
    "Every user instruction on this branch is kept above, older constraints included; earlier assistant narratives and tool results were omitted from this request.",
    "Re-read the files you need now (project files may have changed), then act with tools on the latest user request instead of announcing what you will do.",
  ].join("\n");
  return { customType: KIT.recoveryMarker, content, display: true, details };
}

export function stallStop(details: StallStopDetails): HostMessage<StallStopDetails> {
  const content = `${STALLED_CODE}: after a recovery the reply again only announced an action without attempting any tool. The host stopped instead of retrying; send a new instruction to continue.`;
  return { customType: KIT.stallStop, content, display: true, details };
}

function checkLine(check: CheckOutcome): string {
  const tests = check.testsRun !== undefined ? `, ${check.testsRun} tests ran` : "";
  const status = check.status === "no_tests" ? "ran no tests (no coverage established)" : check.status;
  return `- ${check.name}: ${status}${tests} (run by ${check.by}). ${check.summary}`.trimEnd();
}

export function completionReport(details: CompletionReportDetails): HostMessage<CompletionReportDetails> {
  const content = [
    `Completion report (revision ${details.revision}, verification round ${details.round}): the host ran the checks still missing after your changes.`,
    ...details.checks.map(checkLine),
    "Report these results to the user, or make a localised repair if a check failed. A failure that you cannot fix is a concrete blocker: say so.",
  ].join("\n");
  return { customType: KIT.completionReport, content, display: true, details };
}

export function verificationIncomplete(
  details: VerificationIncompleteDetails,
): HostMessage<VerificationIncompleteDetails> {
  const missing = details.missing.length > 0 ? details.missing.join(", ") : "none";
  const content = `${INCOMPLETE_CODE}: ${details.rounds === 1 ? "1 automatic verification round was" : `${details.rounds} automatic verification rounds were`} used for this request and checks are still missing for revision ${details.revision}: ${missing}. The changes are not verified.`;
  return { customType: KIT.verificationIncomplete, content, display: true, details };
}

export type { CheckName };

const LOOP_WORDS: Record<ToolLoopReport["kind"], string> = {
  repeat: "the same tool call returned the same result again and again",
  "ping-pong": "two tool calls alternated, each returning the same result every time",
  "repeated-failure": "the same tool call failed with the same error again and again",
  "post-compaction": "the same tool call with the same result resumed right after the context was summarised",
};

/** `tool {"arg":…}`, shortened for a message line. */
export function describeCall(call: { tool: string; args: unknown }, max = 200): string {
  const args = JSON.stringify(call.args ?? {}) ?? "{}";
  return `${call.tool} ${args.length > max ? `${args.slice(0, max)}…` : args}`;
}

/** One line: the kind, the calls and the entries that make the loop. */
export function describeToolLoop(loop: ToolLoopReport): string {
  const calls = loop.calls.map((call) => describeCall(call, 80)).join(" / ");
  const entries = loop.entryIds.length > 0 ? ` (entries ${loop.entryIds[0]}…${loop.entryIds.at(-1)})` : "";
  return `${loop.kind.toUpperCase()}: ${calls}${entries}`;
}

export function toolLoopMarker(details: ToolLoopMarkerDetails): HostMessage<ToolLoopMarkerDetails> {
  const content = [
    `${TOOL_LOOP_PREFIX}: the host detected a tool-call loop (${details.loop.kind}): ${LOOP_WORDS[details.loop.kind]}.`,
    ...details.loop.calls.map((call) => `- ${describeCall(call)}`),
    `Unchanged result: ${details.result}`,
    "Repeating it will not change the result. Use what it returned, try a different approach, or tell the user what blocks you. If you repeat the call again in this request, the host refuses it and stops the run.",
  ].join("\n");
  return { customType: KIT.toolLoopMarker, content, display: true, details };
}

export function toolLoopStop(details: ToolLoopStopDetails): HostMessage<ToolLoopStopDetails> {
  const calls = details.loop.calls.map((call) => describeCall(call)).join("; ");
  const content = `${TOOL_LOOP_STOP_CODE}: after a loop marker the model repeated the same tool call again (${details.loop.kind}: ${calls}). The host refused the call and stopped instead of retrying; send a new instruction to continue.`;
  return { customType: KIT.toolLoopStop, content, display: true, details };
}
