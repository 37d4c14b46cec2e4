import { copyFileSync, rmSync } from "node:fs";
import type { OutgoingView } from "../projections/outgoing-view.js";
import { recoveryMarker } from "../src/kit/host-messages.js";
import type { AgentMessage } from "../src/log/entry-types.js";
import { handleContextRequest } from "../src/pi/context-hook.js";
import { LiveDigests } from "../src/pi/live-digests.js";
import type { SessionView } from "../src/pi/live-state.js";
import { LiveState } from "../src/pi/live-state.js";
import type { HostApi, HostSessionManager } from "./host.js";
import { collectGarbage, median, percentile, ratio, timed } from "./stats.js";

export interface Latency {
  medianMs: number;
  p99Ms: number;
  samples: number;
}

export interface PerRequestRow {
  name: string;
  /** Entries on the branch when the requests start (all folded when the session opens). */
  entries: number;
  /** Messages the host sends for the branch (its `context` event's length). */
  messages: number;
  /** The incremental fold of the one newly appended entry (`LiveState.atLeaf`), on the branch without an anchor. */
  fold: Latency;
  /**
   * The same on the anchored branch, where each request also builds a recovery view of the whole branch (which
   * leaves the caches cold for the next fold).
   */
  foldAnchored: Latency;
  /** The whole `context` hook when no projection applies: fold, view (the host's messages), digest recorded. */
  passThrough: Latency;
  /** The whole hook on an anchored branch: fold, the recovery view, digest recorded. */
  recoveryView: Latency;
  /** The request digest alone, on the anchored branch (part of `recoveryView`). */
  digest: Latency;
  /** The host's own per-request preparation of the same branch: the `structuredClone` of its messages. */
  hostClone: Latency;
  /** recoveryView.medianMs / hostClone.medianMs (target ≤ 0.1). */
  rewriteRatio: number;
  /** Messages hashed and chain links computed per timed request for its digest (mean), pass-through and recovery view. */
  digestWork: { pass: DigestCount; view: DigestCount };
  /** Reducer calls per request: the appended message and the kit's digest entry of the request before (2, flat). */
  reductionsPerRequest: number;
  /** Most hook calls per case; a case stops earlier (after at least 20) when it runs out of its time budget. */
  requests: number;
  cloneReps: number;
}

export interface DigestCount {
  messagesHashed: number;
  links: number;
}

const meanOf = (counts: DigestCount[]): DigestCount => ({
  messagesHashed: counts.reduce((sum, c) => sum + c.messagesHashed, 0) / Math.max(1, counts.length),
  links: counts.reduce((sum, c) => sum + c.links, 0) / Math.max(1, counts.length),
});

function latency(samples: number[]): Latency {
  return { medianMs: median(samples), p99Ms: percentile(samples, 99), samples: samples.length };
}

const BASE_MS = Date.UTC(2026, 5, 1);
/** Untimed requests before each case: compiled code on the path the case takes. */
const WARMUP = 20;

/** What the host appends between two requests: a tool call, then its result, alternating. */
function nextMessage(i: number): AgentMessage {
  const timestamp = BASE_MS + i * 1000;
  const callId = `call_bench_${i >> 1}`;
  if (i % 2 === 0) {
    return {
      role: "assistant",
      content: [{ type: "toolCall", id: callId, name: "read", arguments: { path: `src/file-${i}.ts` } }],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      stopReason: "toolUse",
      timestamp,
    };
  }
  return {
    role: "toolResult",
    toolCallId: callId,
    toolName: "read",
    content: [{ type: "text", text: `export const value${i} = ${i};\n`.repeat(20) }],
    details: { path: `/home/dev/src/file-${i}.ts` },
    isError: false,
    timestamp,
  };
}

/**
 * Per-request cost of the kit's `context` hook at one branch size, run on the host's own session manager opened on
 * a copy of the file (appends go to the copy). The fold is warmed over the saved branch, as the extension does on
 * `session_start`; then each request appends one message, as the agent loop does, and runs the hook's code
 * (`LiveState.atLeaf`, `projectContext`). First with no anchor (pass-through), then after a recovery marker (recovery
 * view). The host's side is the deep copy it makes of the same messages for the `context` event.
 */
export function measurePerRequest(
  host: HostApi,
  name: string,
  file: string,
  options: { requests: number; cloneReps: number; budgetMs: number },
): PerRequestRow {
  const copy = `${file}.live.jsonl`;
  copyFileSync(file, copy);
  try {
    return measureOn(host.SessionManager.open(copy), name, options);
  } finally {
    rmSync(copy, { force: true });
  }
}

function measureOn(
  sm: HostSessionManager,
  name: string,
  options: { requests: number; cloneReps: number; budgetMs: number },
): PerRequestRow {
  const live = new LiveState();
  live.atLeaf(sm);
  const fold = live.forSession(sm);
  const entries = fold.size;
  const messages = sm.buildSessionContext().messages.slice() as AgentMessage[];
  const messageCount = messages.length;

  // Warmed like the hook below: one untimed copy first.
  structuredClone(messages);
  collectGarbage();
  const cloneTimes: number[] = [];
  for (let i = 0; i < options.cloneReps; i++) {
    cloneTimes.push(timed(() => structuredClone(messages)).ms);
    collectGarbage();
  }

  let counter = 0;
  let requests = 0;
  const reductionsBefore = fold.reductions;
  const digests = new LiveDigests();
  let digestMs = 0;
  const timedDigests = {
    digest(session: SessionView, host: readonly AgentMessage[], view: OutgoingView) {
      const start = performance.now();
      const digest = digests.digest(session, host, view);
      digestMs = performance.now() - start;
      return digest;
    },
  };
  const run = (
    foldSamples: number[],
    hookSamples: number[],
    digestSamples: number[],
    work: DigestCount[],
    anchored: boolean,
  ) => {
    const deadline = performance.now() + options.budgetMs;
    for (let i = -WARMUP; i < options.requests; i++) {
      const message = nextMessage(counter++);
      sm.appendMessage(message);
      messages.push(message);
      requests++;
      const start = performance.now();
      const state = live.atLeaf(sm);
      const folded = performance.now();
      const view = handleContextRequest({
        session: sm,
        live,
        digests: timedDigests,
        kitVersion: "bench",
        messages,
        inputs: () => [],
        append: (customType, data) => sm.appendCustomEntry(customType, data),
      });
      const end = performance.now();
      if (view.changed !== anchored || state !== live.atLeaf(sm)) {
        throw new Error("bench: the hook did not take the expected path");
      }
      if (i < 0) {
        // A slow request needs no more warming up: compiling is noise next to it.
        if (end - start > 20) i = -1;
        continue;
      }
      foldSamples.push(folded - start);
      hookSamples.push(end - start);
      digestSamples.push(digestMs);
      const { messagesHashed, links } = digests.lastWork;
      work.push({ messagesHashed, links });
      if (i >= 20 && performance.now() > deadline) break;
    }
  };

  const foldSamples: number[] = [];
  const passSamples: number[] = [];
  const passWork: DigestCount[] = [];
  run(foldSamples, passSamples, [], passWork, false);

  const marker = recoveryMarker({ requestId: null, promiseEntryIds: [], reason: "bench" });
  const markerId = sm.appendCustomMessageEntry(marker.customType, marker.content, marker.display, marker.details);
  const markerEntry = sm.getEntry(markerId) as { timestamp: string };
  messages.push({
    role: "custom",
    customType: marker.customType,
    content: marker.content,
    display: marker.display,
    details: marker.details,
    timestamp: Date.parse(markerEntry.timestamp),
  });
  requests++;
  const anchoredFoldSamples: number[] = [];
  const viewSamples: number[] = [];
  const digestSamples: number[] = [];
  const viewWork: DigestCount[] = [];
  run(anchoredFoldSamples, viewSamples, digestSamples, viewWork, true);
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
    digest: latency(digestSamples),
    hostClone,
    rewriteRatio: ratio(recovery.medianMs, hostClone.medianMs),
    digestWork: { pass: meanOf(passWork), view: meanOf(viewWork) },
    reductionsPerRequest: reductions / requests,
    requests: options.requests,
    cloneReps: options.cloneReps,
  };
}
