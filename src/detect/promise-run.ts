import { type RunEvent, UNCOUNTED_STOP_REASONS } from "../../reducers/recovery.js";
import { exhaustive } from "../../reducers/session.js";
import type { PromiseRunState } from "../../reducers/state.js";
import { isPromiseReply } from "./reply-classifier.js";
import { isSimilarReply } from "./similarity.js";

/**
 * Promise-only replies since the last reset that are similar to one another. `repliesSinceFirst` counts the counted
 * assistant replies from the run's first promise on, that one included. The reducer's state type, named for detection.
 */
export type PromiseRun = PromiseRunState;
export type { RunEvent };

export interface StallVerdict {
  stalled: boolean;
  promiseEntryIds: string[];
  reason: string;
}

/** The observed loop: three similar promises in a row. Two are common in normal work (announce, then act). */
export const STALL_RUN_LENGTH = 3;
/**
 * The run must fit in this many assistant replies, counted from its first promise. Six lets a few short answers to
 * user nudges sit between the promises of one loop; promises further apart are ordinary planning in a long session,
 * not a loop. A run that outgrows the window without stalling is dropped (the current promise starts a new one).
 */
export const STALL_WINDOW = 6;
export { UNCOUNTED_STOP_REASONS };

export const EMPTY_RUN: PromiseRun = Object.freeze({
  promiseEntryIds: Object.freeze([]) as unknown as string[],
  texts: Object.freeze([]) as unknown as string[],
  repliesSinceFirst: 0,
  stalled: false,
});

/**
 * One step. Tool calls, tool results and recovery anchors reset the run; user and host messages pass through. A new
 * promise joins the run when it is similar to at least one member (a paraphrase may drift from the first wording);
 * otherwise it starts a new run. Once stalled, a run stays stalled until a reset: nothing else answers the loop.
 */
export function advanceRun(run: PromiseRun, event: RunEvent): PromiseRun {
  switch (event.type) {
    case "toolResult":
    case "anchor":
      return reset(run);
    case "user":
    case "host":
      return run;
    case "assistant":
      return afterReply(run, event);
    default:
      return exhaustive(event);
  }
}

export function detectStall(events: readonly RunEvent[]): StallVerdict {
  const run = events.reduce(advanceRun, EMPTY_RUN);
  const n = run.promiseEntryIds.length;
  if (run.stalled) {
    return {
      stalled: true,
      promiseEntryIds: [...run.promiseEntryIds],
      reason: `${n} similar action-promise replies without a tool call or result within ${run.repliesSinceFirst} replies`,
    };
  }
  const reason =
    n === 0 ? "no open action-promise run" : `${n} of ${STALL_RUN_LENGTH} similar promise replies so far, no stall`;
  return { stalled: false, promiseEntryIds: [...run.promiseEntryIds], reason };
}

type AssistantEvent = Extract<RunEvent, { type: "assistant" }>;

function afterReply(run: PromiseRun, reply: AssistantEvent): PromiseRun {
  if (UNCOUNTED_STOP_REASONS.has(reply.stopReason)) return run;
  if (reply.toolCalls > 0) return reset(run);
  const isPromise = isPromiseReply(reply.text);
  const open = run.promiseEntryIds.length > 0;
  if (!isPromise) return open ? consume(run) : run;
  if (!open) return start(reply);
  if (run.stalled) return join(run, reply);
  if (run.repliesSinceFirst >= STALL_WINDOW) return start(reply);
  if (!run.texts.some((text) => isSimilarReply(text, reply.text))) return start(reply);
  return join(run, reply);
}

function start(reply: AssistantEvent): PromiseRun {
  return { promiseEntryIds: [reply.entryId], texts: [reply.text], repliesSinceFirst: 1, stalled: false };
}

function join(run: PromiseRun, reply: AssistantEvent): PromiseRun {
  const promiseEntryIds = [...run.promiseEntryIds, reply.entryId];
  return {
    promiseEntryIds,
    texts: [...run.texts, reply.text],
    repliesSinceFirst: run.repliesSinceFirst + 1,
    stalled: run.stalled || promiseEntryIds.length >= STALL_RUN_LENGTH,
  };
}

/** A non-promise reply: no reset, but it uses up the window; an open run that outgrows it is dropped. */
function consume(run: PromiseRun): PromiseRun {
  if (!run.stalled && run.repliesSinceFirst >= STALL_WINDOW) return EMPTY_RUN;
  return { ...run, repliesSinceFirst: run.repliesSinceFirst + 1 };
}

function reset(run: PromiseRun): PromiseRun {
  return run.promiseEntryIds.length === 0 && !run.stalled ? run : EMPTY_RUN;
}
