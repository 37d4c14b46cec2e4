import type { KitEvent } from "../../reducers/contract/events.js";
import { type RecoveryDecision, recoveryDecision } from "../../reducers/recovery.js";
import type { KitState } from "../../reducers/state.js";
import { kitReducer } from "../fold/kit-reducer.js";
import { recoveryMarker, stallStop } from "../kit/host-messages.js";
import type { AgentMessage } from "../log/entry-types.js";
import { type SettleStep, settleStep } from "./settle-step.js";

export const NEW_REQUEST_ID = "pending-request";

/** The decision for a prompt that is about to start: a new user request, so the recovery budget is fresh. */
export function decisionForNewRequest(state: KitState): RecoveryDecision {
  const event: KitEvent = { kind: "user", entryId: NEW_REQUEST_ID };
  const next = kitReducer.evolve(state, event);
  return recoveryDecision(next.recovery, NEW_REQUEST_ID) === "recover" ? "recover" : "none";
}

export function markerFor(state: KitState, requestId: string | null, reason: string) {
  return recoveryMarker({ requestId, promiseEntryIds: [...state.recovery.run.promiseEntryIds], reason });
}

/** The end of a clean run, decided from the state at the leaf: a recovery that continues the run, the stall stop, or nothing. */
export function recoveryStep(state: KitState): SettleStep | null {
  const decision = recoveryDecision(state.recovery, state.request.currentRequestId);
  if (decision === "recover") {
    const reason = "three similar action-promise replies without tool progress";
    return settleStep(markerFor(state, state.request.currentRequestId, reason), true);
  }
  return decision === "stop" ? settleStep(stallStopFor(state)) : null;
}

export function stallStopFor(state: KitState) {
  return stallStop({
    requestId: state.request.currentRequestId,
    promiseEntryIds: [...state.recovery.run.promiseEntryIds],
    anchorId: state.recovery.anchorId,
  });
}

/** The run ended normally: not cancelled, no provider error, no tool call left without its result. */
export function endedCleanly(messages: readonly AgentMessage[]): boolean {
  let lastAssistant: AgentMessage | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "assistant") {
      lastAssistant = messages[i];
      break;
    }
  }
  if (lastAssistant?.role !== "assistant") return false;
  if (["error", "aborted"].includes(lastAssistant.stopReason)) return false;
  const calls = lastAssistant.content
    .filter((b) => b.type === "toolCall")
    .map((b) => (b.type === "toolCall" ? b.id : ""));
  const answered = new Set(
    messages.filter((m) => m.role === "toolResult").map((m) => (m.role === "toolResult" ? m.toolCallId : "")),
  );
  return calls.every((id) => answered.has(id));
}
