import { describe, expect, it } from "vitest";
import { latestCalls, withLatest } from "../../reducers/call-list.js";
import type { CallList, ToolCallRecord } from "../../reducers/state.js";
import {
  findLoop,
  type LoopMatch,
  type ResultComparer,
  TOOL_LOOP_THRESHOLDS,
  windowOf,
} from "../../reducers/tool-loop-rules.js";

/** Calls told apart by tool and one argument; results by text; a few fail, wait or name a missing tool. */
function record(tool: string, arg: string, text: string, change: ToolCallRecord["change"]): ToolCallRecord {
  return {
    key: `${tool}\u0000${arg}`,
    tool,
    args: { arg },
    isError: text.startsWith("error"),
    content: text,
    details: null,
    callEntryId: "c",
    resultEntryId: "r",
    change,
  };
}

function comparer(counts: { results: number }): ResultComparer {
  return {
    sameCall: (a, b) => a.key === b.key,
    sameResult: (a, b) => {
      counts.results++;
      return a.content === b.content && a.isError === b.isError;
    },
    failed: (r) => r.isError,
    waiting: (r) => r.content === "still running",
    unknownTool: (r) => r.isError && r.content === "error: no such tool",
  };
}

/** The rules as written before results were compared only when calls alone could make a loop: every pair compared. */
function plainFindLoop(recent: ToolCallRecord[], boundary: number | null, compare: ResultComparer): LoopMatch | null {
  const t = TOOL_LOOP_THRESHOLDS;
  const n = recent.length;
  const last = recent[n - 1];
  if (!last) return null;
  const same = (a: ToolCallRecord, b: ToolCallRecord) => compare.sameCall(a, b) && compare.sameResult(a, b);
  const idle = (r: ToolCallRecord) => r.change === "seen";
  let run = 1;
  let start = n - 1;
  for (let i = n - 2; i >= 0; i--) {
    const r = recent[i] as ToolCallRecord;
    if (same(r, last)) {
      run++;
      start = i;
    } else if (!idle(r) || idle(last)) break;
  }
  const length = n - start;
  if (boundary !== null && length === run) {
    const after = n - boundary;
    if (after >= t.postCompactionEachSide && run >= after + t.postCompactionEachSide) {
      return { kind: "post-compaction", length: run };
    }
  }
  if (run >= t.repeatedFailure && compare.failed(last)) return { kind: "repeated-failure", length };
  let missing = 0;
  if (compare.unknownTool(last)) {
    missing = 1;
    while (missing < n) {
      const r = recent[n - 1 - missing] as ToolCallRecord;
      if (r.tool !== last.tool || !compare.unknownTool(r)) break;
      missing++;
    }
  }
  if (missing >= t.unknownTool) return { kind: "repeated-failure", length: missing };
  let alternating = 0;
  const a = recent[n - 1];
  const b = recent[n - 2];
  if (a && b && !compare.sameCall(a, b) && a.change !== "new" && b.change !== "new") {
    alternating = 2;
    while (
      alternating < n &&
      same(recent[n - 1 - alternating] as ToolCallRecord, recent[n + 1 - alternating] as ToolCallRecord)
    )
      alternating++;
  }
  if (alternating >= 2 * t.pingPongCycles) return { kind: "ping-pong", length: alternating };
  if (run >= (compare.waiting(last) ? t.pollRepeat : t.repeat)) return { kind: "repeat", length };
  return null;
}

/** The calls as the reducer keeps them: a list, newest first, that starts again from copies past twice the window. */
function listOf(calls: readonly ToolCallRecord[]): CallList | null {
  return calls.reduce<CallList | null>((list, c) => withLatest(list, c, TOOL_LOOP_THRESHOLDS.window), null);
}

/** A seeded generator (mulberry32), so a failure names a window that can be built again. */
function random(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return (((x ^ (x >>> 14)) >>> 0) % n) as number;
  };
}

describe("findLoop compares results only where calls alone could make a loop", () => {
  it("gives the verdict of comparing every pair on the latest calls, on 20,000 random runs", () => {
    const texts = ["ok", "ok", "error: ENOENT", "still running", "error: no such tool", "other"];
    const changes: ToolCallRecord["change"][] = [null, null, null, "new", "seen"];
    for (let seed = 0; seed < 20_000; seed++) {
      const pick = random(seed);
      // Runs up to three windows long: the rules read the latest window of the list, which is cut past two.
      const size = 1 + pick(3 * TOOL_LOOP_THRESHOLDS.window);
      const calls: ToolCallRecord[] = [];
      for (let i = 0; i < size; i++) {
        calls.push(
          record(
            ["read", "bash"][pick(2)] as string,
            ["a", "b"][pick(2)] as string,
            texts[pick(6)] as string,
            changes[pick(5)] ?? null,
          ),
        );
      }
      const recent = calls.slice(-TOOL_LOOP_THRESHOLDS.window);
      const boundary = pick(3) === 0 ? pick(recent.length + 1) : null;
      const afterBoundary = boundary === null ? null : recent.length - boundary;
      const list = listOf(calls);
      const read = latestCalls(list, windowOf(list));
      expect(read.length === recent.length && read.every((c, i) => c === recent[i]), `seed ${seed}`).toBe(true);
      const counts = { results: 0 };
      expect(findLoop(list, afterBoundary, comparer(counts)), `seed ${seed}`).toEqual(
        plainFindLoop(recent, boundary, comparer({ results: 0 })),
      );
    }
  });

  it("reads no result when the same call has not repeated often enough to form any loop", () => {
    const counts = { results: 0 };
    const twice = [record("bash", "a", "ok", null), record("bash", "a", "ok", null)];
    expect(findLoop(listOf(twice), null, comparer(counts))).toBeNull();
    expect(counts.results).toBe(0);
    const thrice = [...twice, record("bash", "a", "error: ENOENT", null)];
    expect(findLoop(listOf(thrice), null, comparer(counts))).toBeNull();
    expect(counts.results).toBeGreaterThan(0);
  });
});
