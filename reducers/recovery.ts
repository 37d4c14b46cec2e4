import { produce } from "immer";
import { isHostEcho } from "./host-echo.js";
import type { Slice } from "./slice.js";
import type { PromiseRunState, RecoverySlice } from "./state.js";

/** What the stall detector looks at, one step per entry. */
export type RunEvent =
  | { type: "assistant"; entryId: string; text: string; toolCalls: number; stopReason: string }
  | { type: "toolResult" }
  | { type: "user"; text?: string }
  | { type: "host" }
  | { type: "anchor" };

/** The seam to the stall detector: pure functions, injected so this reducer depends on no implementation. */
export interface StallDetector {
  emptyRun: PromiseRunState;
  /** Returns the same object when the event changes nothing. */
  advanceRun(run: PromiseRunState, event: RunEvent): PromiseRunState;
  isPromiseReply(text: string): boolean;
}

/** Automatic recoveries allowed per user request. */
const MAX_RECOVERIES = 1;
/** Stop reasons of replies that were cut off: they neither count nor reset. */
export const UNCOUNTED_STOP_REASONS: ReadonlySet<string> = new Set(["error", "aborted", "length"]);

function withRun(state: RecoverySlice, run: PromiseRunState): RecoverySlice {
  if (run === state.run) return state;
  const next = { ...state };
  next.run = run;
  return next;
}

/** The recovery anchor, recoveries used in this request and the recent promise run. */
export function recoverySlice(detector: StallDetector): Slice<RecoverySlice> {
  const host = (state: RecoverySlice) => withRun(state, detector.advanceRun(state.run, { type: "host" }));
  return {
    initial: () => ({
      anchorId: null,
      anchorRequestId: null,
      recoveriesThisRequest: 0,
      run: detector.emptyRun,
      promisesSinceAnchor: 0,
      toolAttemptsSinceAnchor: 0,
      stopped: false,
    }),
    on: {
      user(state, event) {
        const text = event.kind === "user" ? (event.text ?? "") : "";
        const next = withRun(state, detector.advanceRun(state.run, { type: "user", text }));
        if (next.recoveriesThisRequest === 0 && !next.stopped) return next;
        const reset = { ...next };
        reset.recoveriesThisRequest = 0;
        reset.stopped = false;
        return reset;
      },
      assistant(state, event) {
        // A host's echo of an earlier turn is no reply: the turn it copies was judged where it stands.
        if (isHostEcho(event.provider, event.model)) return state;
        const toolCalls = event.toolCalls.length;
        const run = detector.advanceRun(state.run, {
          type: "assistant",
          entryId: event.entryId,
          text: event.text,
          toolCalls,
          stopReason: event.stopReason,
        });
        const next = withRun(state, run);
        if (state.anchorId === null || UNCOUNTED_STOP_REASONS.has(event.stopReason)) return next;
        if (toolCalls === 0 && !detector.isPromiseReply(event.text)) return next;
        const counted = { ...next };
        if (toolCalls > 0) counted.toolAttemptsSinceAnchor += 1;
        else counted.promisesSinceAnchor += 1;
        return counted;
      },
      toolResult(state) {
        const next = withRun(state, detector.advanceRun(state.run, { type: "toolResult" }));
        if (state.anchorId === null) return next;
        const counted = { ...next };
        counted.toolAttemptsSinceAnchor += 1;
        return counted;
      },
      kit(state, event, requestId) {
        const record = event.record;
        if (record.type === "recoveryMarker") {
          return produce(state, (d) => {
            d.anchorId = event.entryId;
            d.anchorRequestId = requestId;
            d.recoveriesThisRequest += 1;
            d.run = detector.advanceRun(state.run, { type: "anchor" });
            d.promisesSinceAnchor = 0;
            d.toolAttemptsSinceAnchor = 0;
            // A new marker answers an earlier STALLED_NO_TOOL_PROGRESS stop (only `recover` appends one after it).
            d.stopped = false;
          });
        }
        if (record.type === "stallStop") {
          if (state.stopped) return state;
          const next = { ...state };
          next.stopped = true;
          return next;
        }
        // Recorded request inputs and digests are bookkeeping, not messages of the conversation.
        if (record.type === "rootGuidance" || record.type === "requestDigest") return state;
        return host(state);
      },
      hostMessage: host,
    },
  };
}

export type RecoveryDecision = "recover" | "stop" | "none";

/**
 * What the host should do when a run settles: recover once per request when the promise run stalled; after a
 * recovery in this request, a renewed promise-only stop with no tool attempt ends in STALLED_NO_TOOL_PROGRESS.
 */
export function recoveryDecision(state: RecoverySlice, requestId: string | null): RecoveryDecision {
  if (state.stopped) return "none";
  const recoveredNow = state.anchorId !== null && state.anchorRequestId === requestId;
  if (recoveredNow && state.recoveriesThisRequest >= MAX_RECOVERIES) {
    return state.promisesSinceAnchor > 0 && state.toolAttemptsSinceAnchor === 0 ? "stop" : "none";
  }
  if (state.run.stalled && state.recoveriesThisRequest < MAX_RECOVERIES) return "recover";
  return "none";
}

/** Whether the branch currently ends in a stall: a stalled run, or a stop that nothing has answered yet. */
export function isStalled(state: RecoverySlice): boolean {
  return state.run.stalled || state.stopped;
}
