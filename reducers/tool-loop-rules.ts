import type { ToolLoopKind } from "./contract/kit-entries.js";
import type { CallList, ToolCallRecord, ToolResultRef } from "./state.js";

/**
 * What counts as a tool-call loop: the one place its thresholds live. A call is the tool name with its canonical
 * arguments; results are compared with their volatile parts (timings, timestamps, temp names, PIDs, the kit's own
 * denial counters, generated ids) left out. A run belongs to one user request: a user message starts new runs.
 * Text-only replies and host messages never break a run; a write or edit that leaves no file in a new state neither
 * breaks nor resets one; any other tool call breaks it.
 */
export const TOOL_LOOP_THRESHOLDS = Object.freeze({
  /** `repeat`: the same call with the same result this many times in a row. */
  repeat: 4,
  /** `repeat` for a call that waits on something running (a known poll, or "no new output yet"). */
  pollRepeat: 10,
  /** `ping-pong`: two calls alternating with unchanged results for this many full cycles (A,B,A,B,A,B). */
  pingPongCycles: 3,
  /** `repeated-failure`: the same call failing with the same error this many times in a row. */
  repeatedFailure: 3,
  /** `repeated-failure`: calls to one tool the host does not have, whatever their arguments. */
  unknownTool: 3,
  /** `post-compaction`: the same call and result at least this many times just before a compaction or branch
   * summary and again right after it, nothing else between. */
  postCompactionEachSide: 2,
  /** Calls the detector keeps (the longest pattern is a ping-pong of six). */
  window: 16,
});

/** How results are compared: injected, so this file depends on no implementation. */
export interface ResultComparer {
  /** The same canonical call (`key`), decided without building keys where tool names or arguments tell them apart. */
  sameCall(a: ToolCallRecord, b: ToolCallRecord): boolean;
  /** Equal once volatile parts are left out. */
  sameResult(a: ToolResultRef, b: ToolResultRef): boolean;
  /** An error result, or a build/test result that reports a failure. */
  failed(result: ToolResultRef): boolean;
  /** A call that waits on something running: a known poll, or a result saying there is no new output yet. */
  waiting(result: ToolResultRef): boolean;
  /** The host's answer to a call of a tool it does not have. */
  unknownTool(result: ToolResultRef): boolean;
}

export interface LoopMatch {
  kind: ToolLoopKind;
  /** How many of the latest calls make the loop. */
  length: number;
}

function same(a: ToolCallRecord, b: ToolCallRecord, compare: ResultComparer): boolean {
  return compare.sameCall(a, b) && compare.sameResult(a, b);
}

/** The same call, and with `results` the same result too. */
function matches(a: ToolCallRecord, b: ToolCallRecord, compare: ResultComparer, results: boolean): boolean {
  return results ? same(a, b, compare) : compare.sameCall(a, b);
}

/** How many of the latest calls the detector reads. */
export function windowOf(recent: CallList | null): number {
  return recent === null ? 0 : Math.min(recent.length, TOOL_LOOP_THRESHOLDS.window);
}

/** The latest calls that alternate between two different calls with unchanged results. */
function alternation(recent: CallList, n: number, compare: ResultComparer): number {
  const a = recent.call;
  const b = recent.earlier?.call;
  if (n < 2 || !b || compare.sameCall(a, b)) return 0;
  if (a.change === "new" || b.change === "new") return 0;
  // Calls alone bound the length from above: results are compared only when that bound can make a ping-pong.
  const bound = alternating(recent, n, compare, false);
  return bound < 2 * TOOL_LOOP_THRESHOLDS.pingPongCycles ? bound : alternating(recent, n, compare, true);
}

/** How many of the latest calls each match the call two after it (at least the latest two). */
function alternating(recent: CallList, n: number, compare: ResultComparer, results: boolean): number {
  let length = 2;
  let x = (recent.earlier as CallList).earlier;
  let y = recent;
  while (length < n && matches((x as CallList).call, y.call, compare, results)) {
    length++;
    x = (x as CallList).earlier;
    y = y.earlier as CallList;
  }
  return length;
}

/** A successful write or edit that left no file in a new state: it neither breaks nor resets a run. */
const idle = (r: ToolCallRecord) => r.change === "seen";

/** Calls to the same missing tool at the end of the window. */
function unknownToolRun(recent: CallList, n: number, compare: ResultComparer): number {
  const last = recent.call;
  if (!compare.unknownTool(last)) return 0;
  let run = 1;
  for (let cell = recent.earlier; run < n; cell = (cell as CallList).earlier) {
    const r = (cell as CallList).call;
    if (r.tool !== last.tool || !compare.unknownTool(r)) break;
    run++;
  }
  return run;
}

/** The shortest run any rule below acts on (a post-compaction run has at least two calls on each side). */
const SHORTEST_RUN = Math.min(
  TOOL_LOOP_THRESHOLDS.repeatedFailure,
  TOOL_LOOP_THRESHOLDS.repeat,
  TOOL_LOOP_THRESHOLDS.pollRepeat,
  2 * TOOL_LOOP_THRESHOLDS.postCompactionEachSide,
);

/**
 * The run the last call ends: the calls that match it (with `results`, their results too), going back past idle
 * writes; and how many of the latest calls reach back to its first.
 */
function runWithLast(
  recent: CallList,
  n: number,
  compare: ResultComparer,
  results: boolean,
): { run: number; length: number } {
  const last = recent.call;
  let run = 1;
  let length = 1;
  let cell = recent.earlier;
  for (let back = 1; back < n; back++, cell = (cell as CallList).earlier) {
    const r = (cell as CallList).call;
    if (matches(r, last, compare, results)) {
      run++;
      length = back + 1;
    } else if (!idle(r) || idle(last)) break;
  }
  return { run, length };
}

/**
 * The loop the window (the latest `window` calls) ends in, by precedence post-compaction > repeated-failure >
 * ping-pong > repeat; or null. `afterBoundary`: calls after a compaction or branch summary inside the window.
 */
export function findLoop(
  recent: CallList | null,
  afterBoundary: number | null,
  compare: ResultComparer,
): LoopMatch | null {
  if (recent === null) return null;
  const n = windowOf(recent);
  const last = recent.call;
  const t = TOOL_LOOP_THRESHOLDS;
  // Calls alone bound the run from above: results are compared only when that bound reaches a length a rule needs.
  const bound = runWithLast(recent, n, compare, false);
  const { run, length } = bound.run < SHORTEST_RUN ? bound : runWithLast(recent, n, compare, true);
  if (afterBoundary !== null && length === run) {
    if (afterBoundary >= t.postCompactionEachSide && run >= afterBoundary + t.postCompactionEachSide) {
      return { kind: "post-compaction", length: run };
    }
  }
  if (run >= t.repeatedFailure && compare.failed(last)) return { kind: "repeated-failure", length };
  const missing = unknownToolRun(recent, n, compare);
  if (missing >= t.unknownTool) return { kind: "repeated-failure", length: missing };
  const alternating = alternation(recent, n, compare);
  if (alternating >= 2 * t.pingPongCycles) return { kind: "ping-pong", length: alternating };
  // Whether the call waits decides only between two run lengths: its result is read once the run reaches the shorter.
  const atLeast = Math.min(t.pollRepeat, t.repeat);
  if (run >= atLeast && run >= (compare.waiting(last) ? t.pollRepeat : t.repeat)) {
    return { kind: "repeat", length };
  }
  return null;
}

/** Whether a call with this key would continue the loop the window ends in (the next call the pattern expects). */
export function continuesLoop(recent: CallList | null, loop: LoopMatch | null, key: string): boolean {
  if (!loop || recent === null) return false;
  const expected = loop.kind === "ping-pong" ? recent.earlier?.call : recent.call;
  return expected?.key === key;
}
