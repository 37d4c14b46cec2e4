import { keepsBeforeMarker } from "../../projections/context-in-force.js";
import { recoveryView } from "../../projections/recovery-view.js";
import { KIT } from "../../reducers/contract/kit-entries.js";
import type { BranchFold, EntrySource } from "../fold/branch-fold.js";
import type { AgentMessage, SessionEntry } from "../log/entry-types.js";

/** Entries as the live host holds them (its session manager's id index), growing as the host appends. */
export class LiveEntries implements EntrySource {
  private readonly byId = new Map<string, SessionEntry>();

  constructor(entries: Iterable<SessionEntry> = []) {
    for (const entry of entries) this.byId.set(entry.id, entry);
  }

  add(entry: SessionEntry): void {
    this.byId.set(entry.id, entry);
  }

  get(id: string): SessionEntry | undefined {
    return this.byId.get(id);
  }

  parentOf(id: string): string | null {
    return this.byId.get(id)?.parentId ?? null;
  }
}

/** Where the recovery marker is in the messages of a `context` event: the last kit marker, -1 when none. */
export function markerIndex(messages: readonly AgentMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as AgentMessage;
    if (m.role === "custom" && m.customType === KIT.recoveryMarker) return i;
  }
  return -1;
}

/**
 * The kit's per-request work once the fold is current: with no recovery anchor on the branch the hook returns
 * nothing and the host sends its messages untouched; with one, the request-local recovery view replaces them.
 * `earlierUserMessages` is empty here: the benchmark's branches have no compaction.
 */
export function project(anchorId: string | null, messages: readonly AgentMessage[]): AgentMessage[] | undefined {
  if (anchorId === null) return undefined;
  const anchorIndex = markerIndex(messages);
  if (anchorIndex < 0) return undefined;
  return recoveryView({ messages, anchorIndex, earlierUserMessages: [], keepsCustom: keepsBeforeMarker }).messages;
}

/** One `context` call: the incremental fold up to the new leaf, then the projection. */
export function contextHook(
  fold: BranchFold,
  leafId: string,
  messages: readonly AgentMessage[],
): AgentMessage[] | undefined {
  return project(fold.stateAt(leafId).recovery.anchorId, messages);
}
