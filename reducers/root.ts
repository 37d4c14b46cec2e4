import type { KitEvent } from "./contract/events.js";
import { denialsReducer, initialDenials } from "./denials.js";
import { fileIssuesReducer, initialFileIssues } from "./file-issues.js";
import { initialInputs, inputsReducer } from "./inputs.js";
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
  };
  return {
    initialState: () => initial,
    evolve(state, event) {
      const request = requestReducer(state.request, event);
      const session = sessionReducer(state.session, event);
      const denials = denialsReducer(state.denials, event);
      const fileIssues = fileIssuesReducer(state.fileIssues, event);
      const verification = verificationReducer(state.verification, event);
      const recovery = recoveryReducer(state.recovery, event, request.currentRequestId);
      const toolLoop = toolLoopReducer(state.toolLoop, event, request.currentRequestId);
      const inputs = inputsReducer(state.inputs, event);
      const unchanged =
        request === state.request &&
        session === state.session &&
        denials === state.denials &&
        fileIssues === state.fileIssues &&
        verification === state.verification &&
        recovery === state.recovery &&
        toolLoop === state.toolLoop &&
        inputs === state.inputs;
      return unchanged ? state : { session, request, denials, fileIssues, verification, recovery, toolLoop, inputs };
    },
  };
}
