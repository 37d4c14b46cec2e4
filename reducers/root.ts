import type { KitEvent } from "./contract/events.js";
import { denialsSlice } from "./denials.js";
import { fileIssuesSlice } from "./file-issues.js";
import { inputsSlice } from "./inputs.js";
import { nestedCallsSlice } from "./nested-calls.js";
import { recoverySlice, type StallDetector } from "./recovery.js";
import { requestSlice } from "./request.js";
import { sessionSlice } from "./session.js";
import type { EventKind, Slice } from "./slice.js";
import type { KitState } from "./state.js";
import { type ToolLoopDetector, toolLoopSlice } from "./tool-loop.js";
import { verificationSlice } from "./verification.js";

export interface RootReducer {
  initialState(): KitState;
  /** Returns the same state object when the event changes nothing. */
  evolve(state: KitState, event: KitEvent): KitState;
}

type Handler<S> = (state: S, event: KitEvent, requestId: string | null) => S;

/** Every event kind, numbered: a slice's handlers are a table by these numbers (the type requires every kind). */
const KIND_INDEX: Record<EventKind, number> = {
  user: 0,
  assistant: 1,
  toolResult: 2,
  nestedCall: 3,
  kit: 4,
  hostMessage: 5,
  modelChange: 6,
  thinkingChange: 7,
  other: 8,
};

/** A slice's handlers by event kind number; undefined where the slice does not read the kind. */
function tableOf<S>(slice: Slice<S>): readonly (Handler<S> | undefined)[] {
  const table = new Array<Handler<S> | undefined>(Object.keys(KIND_INDEX).length);
  for (const [kind, index] of Object.entries(KIND_INDEX)) table[index] = slice.on[kind as EventKind] as Handler<S>;
  return table;
}

export function createRootReducer(detector: StallDetector, loopDetector: ToolLoopDetector): RootReducer {
  const session = tableOf(sessionSlice);
  const request = tableOf(requestSlice);
  const denials = tableOf(denialsSlice);
  const fileIssues = tableOf(fileIssuesSlice);
  const verification = tableOf(verificationSlice);
  const recovery = recoverySlice(detector);
  const toolLoop = toolLoopSlice(loopDetector);
  const recoveryOn = tableOf(recovery);
  const toolLoopOn = tableOf(toolLoop);
  const inputs = tableOf(inputsSlice);
  const nested = tableOf(nestedCallsSlice);
  const initial: KitState = {
    session: sessionSlice.initial(),
    request: requestSlice.initial(),
    denials: denialsSlice.initial(),
    fileIssues: fileIssuesSlice.initial(),
    verification: verificationSlice.initial(),
    recovery: recovery.initial(),
    toolLoop: toolLoop.initial(),
    inputs: inputsSlice.initial(),
    nested: nestedCallsSlice.initial(),
  };
  // Each slice is called only for the kinds it reads; the request slice first, as the slices after it read the
  // request the event belongs to. One call site a slice, so that each sees only that slice's handlers.
  const evolveOne = (state: KitState, event: KitEvent): KitState => {
    const k = KIND_INDEX[event.kind];
    const rq = request[k]?.(state.request, event, null) ?? state.request;
    const id = rq.currentRequestId;
    const ss = session[k]?.(state.session, event, id) ?? state.session;
    const dn = denials[k]?.(state.denials, event, id) ?? state.denials;
    const fi = fileIssues[k]?.(state.fileIssues, event, id) ?? state.fileIssues;
    const vf = verification[k]?.(state.verification, event, id) ?? state.verification;
    const rc = recoveryOn[k]?.(state.recovery, event, id) ?? state.recovery;
    const tl = toolLoopOn[k]?.(state.toolLoop, event, id) ?? state.toolLoop;
    const ip = inputs[k]?.(state.inputs, event, id) ?? state.inputs;
    const nc = nested[k]?.(state.nested, event, id) ?? state.nested;
    const unchanged =
      rq === state.request &&
      ss === state.session &&
      dn === state.denials &&
      fi === state.fileIssues &&
      vf === state.verification &&
      rc === state.recovery &&
      tl === state.toolLoop &&
      ip === state.inputs &&
      nc === state.nested;
    if (unchanged) return state;
    return {
      session: ss,
      request: rq,
      denials: dn,
      fileIssues: fi,
      verification: vf,
      recovery: rc,
      toolLoop: tl,
      inputs: ip,
      nested: nc,
    };
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
