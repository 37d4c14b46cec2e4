import type { KitEvent } from "./contract/events.js";
import { denialsReducer, initialDenials } from "./denials.js";
import { fileIssuesReducer, initialFileIssues } from "./file-issues.js";
import { initialInputs, inputsReducer } from "./inputs.js";
import { initialNestedCalls, nestedCallsReducer } from "./nested-calls.js";
import { createRecoveryReducer, initialRecovery, type StallDetector } from "./recovery.js";
import { initialRequest, requestReducer } from "./request.js";
import { initialSession, sessionReducer } from "./session.js";
import type { KitState } from "./state.js";
import { createToolLoopReducer, initialToolLoop, type ToolLoopDetector } from "./tool-loop.js";
import { initialVerification, verificationReducer } from "./verification.js";

export interface RootReducer {
  initialState(): KitState;
  /** Returns the same state object when the event changes nothing. */
  evolve(state: KitState, event: KitEvent): KitState;
}

export function createRootReducer(detector: StallDetector, loopDetector: ToolLoopDetector): RootReducer {
  const recoveryReducer = createRecoveryReducer(detector);
  const toolLoopReducer = createToolLoopReducer(loopDetector);
  const initial: KitState = {
    session: initialSession(),
    request: initialRequest(),
    denials: initialDenials(),
    fileIssues: initialFileIssues(),
    verification: initialVerification(),
    recovery: initialRecovery(detector),
    toolLoop: initialToolLoop(),
    inputs: initialInputs(),
    nested: initialNestedCalls(),
  };
  const evolveOne = (state: KitState, event: KitEvent): KitState => {
    const request = requestReducer(state.request, event);
    const session = sessionReducer(state.session, event);
    const denials = denialsReducer(state.denials, event);
    const fileIssues = fileIssuesReducer(state.fileIssues, event);
    const verification = verificationReducer(state.verification, event);
    const recovery = recoveryReducer(state.recovery, event, request.currentRequestId);
    const toolLoop = toolLoopReducer(state.toolLoop, event, request.currentRequestId);
    const inputs = inputsReducer(state.inputs, event);
    const nested = nestedCallsReducer(state.nested, event);
    const unchanged =
      request === state.request &&
      session === state.session &&
      denials === state.denials &&
      fileIssues === state.fileIssues &&
      verification === state.verification &&
      recovery === state.recovery &&
      toolLoop === state.toolLoop &&
      inputs === state.inputs &&
      nested === state.nested;
    return unchanged
      ? state
      : { session, request, denials, fileIssues, verification, recovery, toolLoop, inputs, nested };
  };
  return {
    initialState: () => initial,
    evolve(state, event) {
      const next = evolveOne(state, event);
      if (event.kind !== "toolResult" || !event.nested) return next;
      // The calls the tool made are folded after its result, as calls of their own.
      const { entryId, toolCallId: parentCallId } = event;
      return event.nested.calls.reduce(
        (s, call) => evolveOne(s, { kind: "nestedCall", entryId, parentCallId, call }),
        next,
      );
    },
  };
}
