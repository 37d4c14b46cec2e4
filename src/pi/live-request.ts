import { type OutgoingView, outgoingView } from "../../projections/outgoing-view.js";
import { sameJson } from "../../projections/same-json.js";
import type { KitState } from "../../reducers/state.js";
import { kitReducer } from "../fold/kit-reducer.js";
import { toEvent } from "../fold/to-event.js";
import type { AgentMessage, SessionEntry } from "../log/entry-types.js";
import { branchUsers, entryMessage } from "../tree/host-context.js";
import type { SessionView } from "./live-state.js";

const PENDING_ID = /^pending-(\d+)$/;

/** The same message in the host's memory and in its entry: custom messages are stamped anew when persisted. */
function sameMessage(live: AgentMessage, stored: AgentMessage): boolean {
  if (live.role !== stored.role) return false;
  if (live.role !== "custom") return live.timestamp === stored.timestamp && sameJson(live, stored);
  const { timestamp: _a, ...a } = live;
  const { timestamp: _b, ...b } = stored as typeof live;
  return sameJson(a, b);
}

/** The newest persisted messages of the branch, newest first, and where the walk stopped. */
interface PersistedEnd {
  /** Message entries back to the first that is not a custom message (custom ones match without timestamps). */
  newest: AgentMessage[];
  /** The walk reached the root: nothing was persisted before `newest`. */
  atRoot: boolean;
  /**
   * A compaction newer than every message, as its summary message; `newest` then holds the messages before it (the
   * context's last messages when the compaction kept them).
   */
  summary: AgentMessage | null;
  /** When `newest` holds custom messages only and the walk stopped at a compaction: what may precede them. */
  before: AgentMessage[];
}

function summaryOf(entry: SessionEntry & { type: "compaction" }): AgentMessage {
  return {
    role: "compactionSummary",
    summary: entry.summary,
    tokensBefore: entry.tokensBefore,
    timestamp: new Date(entry.timestamp).getTime(),
  };
}

/** The first message on the path at or above `id`. */
function messageFrom(session: SessionView, id: string | null): AgentMessage | null {
  while (id !== null) {
    const entry = session.getEntry(id) as SessionEntry | undefined;
    if (!entry) return null;
    const message = entryMessage(entry);
    if (message) return message;
    id = entry.parentId;
  }
  return null;
}

function persistedEnd(session: SessionView): PersistedEnd {
  const end: PersistedEnd = { newest: [], atRoot: false, summary: null, before: [] };
  let id = session.getLeafId();
  while (id !== null) {
    const entry = session.getEntry(id) as SessionEntry | undefined;
    if (!entry) return end;
    if (entry.type === "compaction") {
      if (end.newest.length > 0) {
        // Custom messages only since the compaction: its summary or the last message it kept comes before them.
        const kept = messageFrom(session, entry.parentId);
        end.before = kept ? [summaryOf(entry), kept] : [summaryOf(entry)];
        return end;
      }
      // Only the newest compaction shapes the context; an older one just before it changes nothing.
      end.summary ??= summaryOf(entry);
    }
    const message = entryMessage(entry);
    if (message) {
      end.newest.push(message);
      if (message.role !== "custom") return end;
    }
    id = entry.parentId;
  }
  end.atRoot = end.summary === null;
  return end;
}

/** Where `newest` (newest first) ends in `messages` as a consecutive run, searching from the end; -1 if nowhere. */
function runEnd(messages: readonly AgentMessage[], end: PersistedEnd): number {
  const n = end.newest.length;
  for (let i = messages.length - 1; i >= n - 1; i--) {
    if (!end.newest.every((stored, k) => sameMessage(messages[i - k] as AgentMessage, stored))) continue;
    if (end.atRoot && i - n + 1 !== 0) continue;
    const previous = messages[i - n];
    if (end.before.length > 0 && !(previous && end.before.some((m) => sameMessage(previous, m)))) continue;
    return i;
  }
  return -1;
}

function lastIndexOf(messages: readonly AgentMessage[], stored: AgentMessage): number {
  for (let i = messages.length - 1; i >= 0; i--) if (sameMessage(messages[i] as AgentMessage, stored)) return i;
  return -1;
}

/**
 * Messages of `event.messages` the session has not persisted yet: the host writes through an async queue, so the new
 * user message and the host messages of a prompt (and at times the last turn) are still missing. They land after
 * whatever the kit appends now. Empty when nothing lags.
 */
export function unpersistedTail(session: SessionView, messages: readonly AgentMessage[]): AgentMessage[] {
  const end = persistedEnd(session);
  if (end.newest.length === 0 && !end.summary) return [...messages];
  const run = end.newest.length > 0 ? runEnd(messages, end) : -1;
  const at = end.summary ? Math.max(lastIndexOf(messages, end.summary), run) : run;
  return at < 0 ? [] : messages.slice(at + 1);
}

/** A message not yet in the session, as the entry it will become. */
export function pendingEntry(message: AgentMessage, index: number, parentId: string | null): SessionEntry {
  const id = `pending-${index}`;
  const timestamp = new Date(Number.isFinite(message.timestamp) ? message.timestamp : 0).toISOString();
  if (message.role === "custom") {
    const { customType, content, display, details } = message;
    return { type: "custom_message", id, parentId, timestamp, customType, content, display, details };
  }
  return { type: "message", id, parentId, timestamp, message };
}

/** The state as of `event.messages`: the session's state plus the unpersisted tail folded on top. */
export function stateWithTail(state: KitState, tail: readonly AgentMessage[], leafId: string | null): KitState {
  let next = state;
  let parent = leafId;
  tail.forEach((message, i) => {
    const entry = pendingEntry(message, i, parent);
    next = kitReducer.evolve(next, toEvent(entry));
    parent = entry.id;
  });
  return next;
}

export interface LiveRequest {
  view: OutgoingView;
  /** How many of the request's messages the session had not persisted yet. */
  pending: number;
}

/**
 * The view of the request the host is about to make, from the same inputs `view` reads offline at that request's
 * leaf: the host's messages, the state folded at the leaf (the tail not yet persisted folded on top) and the anchor.
 */
export function liveRequest(session: SessionView, state: KitState, messages: readonly AgentMessage[]): LiveRequest {
  const tail = unpersistedTail(session, messages);
  const current = tail.length > 0 ? stateWithTail(state, tail, session.getLeafId()) : state;
  const anchorId = current.recovery.anchorId;
  let anchor: AgentMessage | null = null;
  if (anchorId !== null) {
    const pending = PENDING_ID.exec(anchorId);
    const entry = pending ? undefined : (session.getEntry(anchorId) as SessionEntry | undefined);
    anchor = pending ? (tail[Number(pending[1])] ?? null) : entry ? entryMessage(entry) : null;
  }
  const users = () => branchUsers(session.getBranch() as SessionEntry[]);
  return { view: outgoingView({ messages, state: current, anchor, branchUsers: users }), pending: tail.length };
}
