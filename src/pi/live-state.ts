import type { KitState } from "../../reducers/state.js";
import { BranchFold, type EntrySource } from "../fold/branch-fold.js";
import { kitReducer } from "../fold/kit-reducer.js";
import { toEvent } from "../fold/to-event.js";
import type { AgentMessage, SessionEntry } from "../log/entry-types.js";
import { entryMessage } from "../tree/host-context.js";

/** The part of the host's read-only session manager the kit uses. */
export interface SessionView {
  getEntry(id: string): unknown;
  getLeafId(): string | null;
  getSessionFile(): string | undefined;
  getSessionId(): string;
}

/**
 * The fold of the live session: memoised by entry id for the whole process, so every request folds only what was
 * appended since. A different session (switch, new, fork) gets a fresh memo.
 */
export class LiveState {
  private fold: BranchFold | null = null;
  private sessionKey = "";

  forSession(session: SessionView): BranchFold {
    const key = `${session.getSessionId()}\u0000${session.getSessionFile() ?? ""}`;
    if (!this.fold || key !== this.sessionKey) {
      const source: EntrySource = {
        get: (id) => session.getEntry(id) as SessionEntry | undefined,
        parentOf: (id) => (session.getEntry(id) as SessionEntry | undefined)?.parentId ?? null,
      };
      this.fold = new BranchFold(source, kitReducer);
      this.sessionKey = key;
    }
    return this.fold;
  }

  /** State at the session's current leaf (the in-memory leaf: `/tree` moves it without writing). */
  atLeaf(session: SessionView): KitState {
    return this.forSession(session).stateAt(session.getLeafId());
  }
}

function sameMessage(a: AgentMessage, b: AgentMessage): boolean {
  if (a.role !== b.role) return false;
  if (a.role === "custom" && b.role === "custom") {
    return a.customType === b.customType && JSON.stringify(a.details) === JSON.stringify(b.details);
  }
  return a.timestamp === b.timestamp;
}

/** The newest context message the session has persisted on the current branch. */
function lastPersistedMessage(session: SessionView): AgentMessage | null {
  let id = session.getLeafId();
  for (let steps = 0; id !== null && steps < 64; steps++) {
    const entry = session.getEntry(id) as SessionEntry | undefined;
    if (!entry) return null;
    const message = entryMessage(entry);
    if (message) return message;
    id = entry.parentId;
  }
  return null;
}

/**
 * Messages of `event.messages` the session has not persisted yet (the host writes through an async queue, so the
 * new user message and host messages of this prompt may still be missing). Empty when nothing lags.
 */
export function unpersistedTail(session: SessionView, messages: readonly AgentMessage[]): AgentMessage[] {
  const last = lastPersistedMessage(session);
  if (!last) return [...messages];
  for (let i = messages.length - 1; i >= 0; i--) {
    if (sameMessage(messages[i] as AgentMessage, last)) return messages.slice(i + 1);
  }
  return [];
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
