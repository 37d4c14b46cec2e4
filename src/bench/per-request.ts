import { BranchFold } from "../fold/branch-fold.js";
import { kitReducer } from "../fold/kit-reducer.js";
import { recoveryMarker } from "../kit/host-messages.js";
import type { AgentMessage, SessionEntry } from "../log/entry-types.js";
import { loadSession } from "../session.js";
import { buildHostContext } from "../tree/host-context.js";
import { LiveEntries, project } from "./context-hook.js";
import { collectGarbage, median, percentile, ratio, timed } from "./stats.js";

export interface Latency {
  medianMs: number;
  p99Ms: number;
}

export interface PerRequestRow {
  name: string;
  /** Entries on the branch when the requests start. */
  entries: number;
  /** Messages the host sends for the branch (its `context` event's length). */
  messages: number;
  /** The incremental fold of the one newly appended entry, on the branch without an anchor. */
  fold: Latency;
  /** The same on the anchored branch, where each request also builds a recovery view of the whole branch, which
   * leaves the caches cold for the next fold. */
  foldAnchored: Latency;
  /** The whole hook when no projection applies: fold, then return without touching the messages. */
  passThrough: Latency;
  /** The whole hook on an anchored branch: fold, find the marker, build the recovery view. */
  recoveryView: Latency;
  /** The host's own per-request preparation of the same branch: the `structuredClone` of its messages. */
  hostClone: Latency;
  /** recoveryView.medianMs / hostClone.medianMs (target ≤ 0.1). */
  rewriteRatio: number;
  /** Reducer calls per request (1: proportional to what was appended). */
  reductionsPerRequest: number;
  requests: number;
  cloneReps: number;
}

function latency(samples: number[]): Latency {
  return { medianMs: median(samples), p99Ms: percentile(samples, 99) };
}

const BASE_MS = Date.UTC(2026, 5, 1);
/** Untimed requests before each case: compiled code on the path the case takes. */
const WARMUP = 20;

/** The next entry the host appends during a run: a tool call, then its result, alternating. */
function nextEntry(i: number, parentId: string): SessionEntry {
  const id = `b${i.toString(16).padStart(7, "0")}`;
  const timestamp = new Date(BASE_MS + i * 1000).toISOString();
  const callId = `call_bench_${i >> 1}`;
  const message: AgentMessage =
    i % 2 === 0
      ? {
          role: "assistant",
          content: [{ type: "toolCall", id: callId, name: "read", arguments: { path: `src/file-${i}.ts` } }],
          api: "anthropic-messages",
          provider: "anthropic",
          model: "claude-sonnet-4-5",
          stopReason: "toolUse",
          timestamp: BASE_MS + i * 1000,
        }
      : {
          role: "toolResult",
          toolCallId: callId,
          toolName: "read",
          content: [{ type: "text", text: `export const value${i} = ${i};\n`.repeat(20) }],
          details: { path: `/home/dev/src/file-${i}.ts` },
          isError: false,
          timestamp: BASE_MS + i * 1000,
        };
  return { type: "message", id, parentId, timestamp, message };
}

/**
 * Per-request cost at one branch size: the fold is warmed over the saved branch (as after earlier requests), then
 * each request appends one entry and runs the hook. First with no anchor (pass-through), then after a recovery
 * marker (recovery view). The host's side is the deep copy it makes of the same messages for the `context` event.
 */
export function measurePerRequest(name: string, file: string, requests: number, cloneReps: number): PerRequestRow {
  const { tree } = loadSession(file);
  const live = new LiveEntries(tree.entries);
  const fold = new BranchFold(live, kitReducer);
  let leaf = tree.activeLeafId as string;
  fold.stateAt(leaf);
  const messages: AgentMessage[] = buildHostContext(tree, leaf).messages.slice();
  const entries = tree.size;
  const messageCount = messages.length;

  collectGarbage();
  const cloneTimes: number[] = [];
  for (let i = 0; i < cloneReps; i++) {
    cloneTimes.push(timed(() => structuredClone(messages)).ms);
    collectGarbage();
  }

  let counter = 0;
  const reductionsBefore = fold.reductions;
  const append = (entry: SessionEntry) => {
    live.add(entry);
    if (entry.type === "message") messages.push(entry.message);
    else if (entry.type === "custom_message") {
      messages.push({
        role: "custom",
        customType: entry.customType,
        content: entry.content,
        display: entry.display,
        details: entry.details,
        timestamp: Date.parse(entry.timestamp),
      });
    }
    leaf = entry.id;
  };
  const run = (foldSamples: number[], hookSamples: number[], anchored: boolean) => {
    for (let i = -WARMUP; i < requests; i++) {
      append(nextEntry(counter++, leaf));
      const start = performance.now();
      const state = fold.stateAt(leaf);
      const folded = performance.now();
      const out = project(state.recovery.anchorId, messages);
      const end = performance.now();
      if ((out !== undefined) !== anchored) throw new Error("bench: the hook did not take the expected path");
      if (i < 0) continue;
      foldSamples.push(folded - start);
      hookSamples.push(end - start);
    }
  };

  const foldSamples: number[] = [];
  const passSamples: number[] = [];
  run(foldSamples, passSamples, false);

  const marker = recoveryMarker({ requestId: null, promiseEntryIds: [], reason: "bench" });
  append({
    type: "custom_message",
    id: `m${(counter++).toString(16).padStart(7, "0")}`,
    parentId: leaf,
    timestamp: new Date(BASE_MS).toISOString(),
    customType: marker.customType,
    content: marker.content,
    display: marker.display,
    details: marker.details,
  });
  const anchoredFoldSamples: number[] = [];
  const viewSamples: number[] = [];
  run(anchoredFoldSamples, viewSamples, true);
  const reductions = fold.reductions - reductionsBefore;

  const recovery = latency(viewSamples);
  const hostClone = latency(cloneTimes);
  return {
    name,
    entries,
    messages: messageCount,
    fold: latency(foldSamples),
    foldAnchored: latency(anchoredFoldSamples),
    passThrough: latency(passSamples),
    recoveryView: recovery,
    hostClone,
    rewriteRatio: ratio(recovery.medianMs, hostClone.medianMs),
    reductionsPerRequest: reductions / (2 * (requests + WARMUP) + 1),
    requests,
    cloneReps,
  };
}
