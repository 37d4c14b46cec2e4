import { latestCalls, withLatest } from "./call-list.js";
import type { ToolCallRef } from "./contract/events.js";
import type { ToolLoopReport } from "./contract/kit-entries.js";
import { isHostEcho } from "./host-echo.js";
import type { Slice } from "./slice.js";
import type {
  CallList,
  OpenToolLoopEpisode,
  PendingToolCall,
  ToolCallRecord,
  ToolLoopEpisode,
  ToolLoopSlice,
  ToolResultRef,
} from "./state.js";
import { continuesLoop, findLoop, type ResultComparer, TOOL_LOOP_THRESHOLDS, windowOf } from "./tool-loop-rules.js";

/** The seam to the loop detector's canonical forms: pure functions, injected like the stall detector. */
export interface ToolLoopDetector extends ResultComparer {
  /** The call's identity: tool name and arguments, key order and formatting ignored. */
  callKey(tool: string, args: unknown): string;
  /** A successful write or edit, as the tool reports it. */
  madeProgress(result: ToolResultRef): boolean;
  /** The file state a write or edit leaves (and, for an edit, the text it replaced); null for other calls. */
  fileStates(tool: string, args: unknown): FileStates | null;
}

type FileStates = { path: string; before: string | null; after: string };

/** Loop markers allowed per user request; a loop that goes on after one is refused and stopped. */
export const MAX_LOOP_MARKERS = 1;

const EMPTY_PENDING: readonly PendingToolCall[] = Object.freeze([]);

const initialToolLoop = (): ToolLoopSlice => ({
  pending: EMPTY_PENDING,
  recent: null,
  afterBoundary: null,
  loop: null,
  markerId: null,
  markerRequestId: null,
  markersThisRequest: 0,
  stopped: null,
  runsEnded: false,
  episodes: Object.freeze([]) as readonly ToolLoopEpisode[],
  episode: null,
});

/**
 * Tool-call loops on the branch: the latest calls with their results, the loop they end in, and the loop markers and
 * stops of the current request. Entry contents are kept by reference, never copied or frozen.
 */
export function toolLoopSlice(detector: ToolLoopDetector): Slice<ToolLoopSlice> {
  /** A pending call whose canonical key is built when first read: most calls are told apart without one. */
  class PendingCall implements PendingToolCall {
    #key: string | undefined;
    constructor(
      readonly id: string,
      readonly tool: string,
      readonly args: unknown,
      readonly entryId: string,
    ) {}
    get key(): string {
      this.#key ??= detector.callKey(this.tool, this.args);
      return this.#key;
    }
  }

  /**
   * A call with its result; its key is its call's (built lazily), or given for a result without a call. `earlier`:
   * the calls before it, which a successful write or edit is compared with; false for a call that changes no file.
   */
  class CallRecord implements ToolCallRecord {
    readonly #call: PendingCall | null;
    readonly #key: string | null;
    #fileStates: FileStates | null | undefined;
    readonly change: "new" | "seen" | null;
    constructor(
      call: PendingCall | null,
      key: string | null,
      readonly tool: string,
      readonly args: unknown,
      readonly isError: boolean,
      readonly content: unknown,
      readonly details: unknown,
      readonly callEntryId: string,
      readonly resultEntryId: string,
      earlier: CallList | null | false,
    ) {
      this.#call = call;
      this.#key = key;
      this.change = earlier === false ? null : changeOf(earlier, this);
    }
    get key(): string {
      return this.#key ?? (this.#call as PendingCall).key;
    }
    /** As plain data, the key included (a getter, which JSON leaves out): how a memo of the state keeps it. */
    toJSON(): ToolCallRecord {
      const { key, tool, args, isError, content, details, callEntryId, resultEntryId, change } = this;
      return { key, tool, args, isError, content, details, callEntryId, resultEntryId, change };
    }
    /** The file states it leaves, built once: every later write or edit in the window is compared with them. */
    get fileStates(): FileStates | null {
      if (this.#fileStates === undefined) this.#fileStates = detector.fileStates(this.tool, this.args);
      return this.#fileStates;
    }
  }

  /** A message's calls, waiting for their results (a loop, not `map`: no function made per message). */
  const pendingCalls = (calls: readonly ToolCallRef[], entryId: string): readonly PendingToolCall[] => {
    if (calls.length === 0) return EMPTY_PENDING;
    const pending = new Array<PendingCall>(calls.length);
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i] as ToolCallRef;
      pending[i] = new PendingCall(call.id, call.name, call.args, entryId);
    }
    return pending;
  };

  /** A record's file states (a record read back from a memo file is plain data). */
  const fileStatesOf = (r: ToolCallRecord) =>
    r instanceof CallRecord ? r.fileStates : detector.fileStates(r.tool, r.args);

  const withCall = (state: ToolLoopSlice, record: ToolCallRecord): ToolLoopSlice => {
    const recent = withLatest(state.runsEnded ? null : state.recent, record, TOOL_LOOP_THRESHOLDS.window);
    // The boundary counts while a call before it is still in the window.
    const after = state.afterBoundary === null || state.runsEnded ? null : state.afterBoundary + 1;
    const afterBoundary = after !== null && after < windowOf(recent) ? after : null;
    const loop = findLoop(recent, afterBoundary, detector);
    const continues = state.loop !== null && !state.runsEnded;
    const ended = state.episode !== null && !(loop && continues);
    const episodes = ended ? [...state.episodes, (state.episode as OpenToolLoopEpisode).episode] : state.episodes;
    let episode = ended ? null : state.episode;
    if (loop) {
      episode =
        continues && state.episode
          ? extendEpisode(state.episode, record, loop.kind, episodeKey)
          : openEpisode(latestCalls(recent, loop.length), loop.kind, episodeKey);
    }
    // Every field written out on the two updates made per call: a spread (`{ ...state, recent }`) keeps only the
    // fields it names inside the new object, and measured twice as slow here.
    return {
      pending: state.pending,
      recent,
      afterBoundary,
      loop,
      markerId: state.markerId,
      markerRequestId: state.markerRequestId,
      markersThisRequest: state.markersThisRequest,
      stopped: state.stopped,
      runsEnded: false,
      episodes,
      episode,
    };
  };

  /** A call's identity in an episode: calls to one missing tool are one call whatever their arguments. */
  const episodeKey = (c: ToolCallRecord) => (detector.unknownTool(c) ? `missing\u0000${c.tool}` : c.key);

  /** Whether a write or edit with this result left a file in a state not already seen in the latest calls. */
  function changeOf(recent: CallList | null, call: ToolCallRecord) {
    if (!detector.madeProgress(call)) return null;
    const states = fileStatesOf(call);
    if (states === null) return "new";
    let cell = recent;
    for (let n = windowOf(recent); n > 0; n--, cell = (cell as CallList).earlier) {
      const r = (cell as CallList).call;
      if (r.change === null) continue;
      const earlier = fileStatesOf(r);
      if (earlier?.path === states.path && (earlier.after === states.after || earlier.before === states.after)) {
        return "seen";
      }
    }
    return "new";
  }

  return {
    initial: initialToolLoop,
    on: {
      user(state) {
        // A user message starts new runs: a retry the user asked for is not a loop.
        const runsEnded = state.runsEnded || state.recent !== null;
        if (state.markersThisRequest === 0 && state.stopped === null && state.runsEnded === runsEnded) return state;
        return { ...state, markersThisRequest: 0, stopped: null, runsEnded };
      },
      assistant(state, event) {
        if (event.toolCalls.length === 0 && state.pending === EMPTY_PENDING) return state;
        if (isHostEcho(event.provider, event.model)) return state;
        // A list, not an object keyed by call ids: a message makes a few calls, and ids as keys cost a shape each.
        return {
          pending: pendingCalls(event.toolCalls, event.entryId),
          recent: state.recent,
          afterBoundary: state.afterBoundary,
          loop: state.loop,
          markerId: state.markerId,
          markerRequestId: state.markerRequestId,
          markersThisRequest: state.markersThisRequest,
          stopped: state.stopped,
          runsEnded: state.runsEnded,
          episodes: state.episodes,
          episode: state.episode,
        };
      },
      toolResult(state, event) {
        // A call the host cancelled before it ran (Esc, "Operation aborted"): neither a failure nor a loop.
        if (event.cancelled) return state;
        const call = pendingCall(state.pending, event.toolCallId);
        const tool = call?.tool ?? event.toolName;
        const args = call?.args ?? null;
        const record = new CallRecord(
          call instanceof PendingCall ? call : null,
          // A result without its call is a call of its own: it never repeats, so it breaks any run.
          call instanceof PendingCall ? null : (call?.key ?? `${tool}\u0000unpaired:${event.entryId}`),
          tool,
          args,
          event.isError,
          event.content,
          event.details,
          call?.entryId ?? event.entryId,
          event.entryId,
          state.recent,
        );
        return withCall(state, record);
      },
      kit(state, event, requestId) {
        const record = event.record;
        if (record.type === "toolLoopMarker") {
          const markersThisRequest = state.markersThisRequest + 1;
          return { ...state, markerId: event.entryId, markerRequestId: requestId, markersThisRequest };
        }
        if (record.type === "toolLoopStop") {
          return { ...state, stopped: record.details.loop };
        }
        return state;
      },
      nestedCall(state, event) {
        // The host keeps a nested call's error text but not its result: a failure can repeat (same call, same
        // error); a call that succeeded is a call of its own, never the same result, so it joins no run.
        const { call } = event;
        if (call.status === "error" && call.args !== undefined) {
          const content = [{ type: "text", text: call.error ?? "" }];
          const pending = new PendingCall(call.id, call.name, call.args, event.entryId);
          const { entryId } = event;
          return withCall(
            state,
            new CallRecord(pending, null, call.name, call.args, true, content, null, entryId, entryId, false),
          );
        }
        // Without arguments the call is told apart by its key alone, which no other call has.
        const key = `${call.name}\u0000nested:${event.entryId}:${call.id}`;
        const { entryId } = event;
        return withCall(state, new CallRecord(null, key, call.name, null, false, null, null, entryId, entryId, false));
      },
      other(state, event) {
        if (!event.boundary || state.afterBoundary === 0) return state;
        return { ...state, afterBoundary: 0 };
      },
    },
  };
}

/** The call a result answers: the last pending one with its id (a repeated id names the later call). */
function pendingCall(pending: readonly PendingToolCall[], id: string): PendingToolCall | undefined {
  for (let i = pending.length - 1; i >= 0; i--) if ((pending[i] as PendingToolCall).id === id) return pending[i];
  return undefined;
}

/** An episode from the calls that formed it. */
function openEpisode(
  calls: readonly ToolCallRecord[],
  kind: ToolLoopEpisode["kind"],
  keyOf: (c: ToolCallRecord) => string,
): OpenToolLoopEpisode {
  const distinct = new Map<string, { tool: string; args: unknown }>();
  const entryIds: string[] = [];
  for (const c of calls) {
    const key = keyOf(c);
    if (!distinct.has(key)) distinct.set(key, { tool: c.tool, args: c.args });
    if (entryIds[entryIds.length - 1] !== c.callEntryId) entryIds.push(c.callEntryId);
    entryIds.push(c.resultEntryId);
  }
  const episode = {
    kind,
    calls: [...distinct.values()],
    entryIds,
    callCount: calls.length,
    wastedCalls: calls.length - distinct.size,
  };
  return { episode, keys: [...distinct.keys()] };
}

/** The episode with one more call that continues its loop. */
function extendEpisode(
  open: OpenToolLoopEpisode,
  c: ToolCallRecord,
  kind: ToolLoopEpisode["kind"],
  keyOf: (c: ToolCallRecord) => string,
) {
  const { episode } = open;
  const key = keyOf(c);
  const repeated = open.keys.includes(key);
  const entryIds = [...episode.entryIds];
  if (entryIds[entryIds.length - 1] !== c.callEntryId) entryIds.push(c.callEntryId);
  entryIds.push(c.resultEntryId);
  const next: OpenToolLoopEpisode = {
    episode: {
      kind,
      calls: repeated ? episode.calls : [...episode.calls, { tool: c.tool, args: c.args }],
      entryIds,
      callCount: episode.callCount + 1,
      wastedCalls: episode.wastedCalls + (repeated ? 1 : 0),
    },
    keys: repeated ? open.keys : [...open.keys, key],
  };
  return next;
}

/** A loop episode on a branch, as `replay --json` reports it. */
export interface ToolLoopEpisodeReport extends ToolLoopEpisode {
  /** The loop the branch ends in (`detect` reports it); false for a loop escaped earlier on the branch. */
  atLeaf: boolean;
}

/** Every loop episode on the branch, escaped or not, oldest first. */
export function toolLoopEpisodes(state: ToolLoopSlice): ToolLoopEpisodeReport[] {
  const out: ToolLoopEpisodeReport[] = state.episodes.map((e) => ({ ...e, atLeaf: false }));
  if (state.episode) out.push({ ...state.episode.episode, atLeaf: state.loop !== null });
  else if (state.stopped) {
    const first = state.stopped.entryIds[0];
    for (let i = out.length - 1; i >= 0; i--) {
      const episode = out[i] as ToolLoopEpisodeReport;
      if (!episode.entryIds.includes(first as string)) continue;
      episode.atLeaf = true;
      break;
    }
  }
  return out;
}

/** The loop the branch ends in, as `detect --json` reports it; a recorded stop counts until a new user request. */
export function toolLoopReport(state: ToolLoopSlice): ToolLoopReport | null {
  if (state.loop) {
    const calls = latestCalls(state.recent, state.loop.length);
    const distinct = new Map<string, { tool: string; args: unknown }>();
    const entryIds: string[] = [];
    for (const c of calls) {
      if (!distinct.has(c.key)) distinct.set(c.key, { tool: c.tool, args: c.args });
      if (entryIds[entryIds.length - 1] !== c.callEntryId) entryIds.push(c.callEntryId);
      entryIds.push(c.resultEntryId);
    }
    // The episode names calls to one missing tool once, whatever their arguments.
    const named = state.episode && state.episode.keys.length < distinct.size ? state.episode.episode.calls : null;
    return { kind: state.loop.kind, calls: named ?? [...distinct.values()], entryIds };
  }
  return state.stopped;
}

export type ToolLoopDecision = "mark" | "none";

/** After a tool result: the first loop in a user request gets a visible marker. */
export function toolLoopDecision(state: ToolLoopSlice): ToolLoopDecision {
  if (!state.loop || state.stopped) return "none";
  return state.markersThisRequest < MAX_LOOP_MARKERS ? "mark" : "none";
}

/** Before a call: a call that continues a loop after this request's marker is refused, and the run stops. */
export function refusesCall(state: ToolLoopSlice, key: string): boolean {
  if (state.markersThisRequest < MAX_LOOP_MARKERS) return false;
  return continuesLoop(state.recent, state.loop, key);
}
