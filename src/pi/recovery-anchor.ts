import { KIT } from "../../reducers/contract/kit-entries.js";
import type { AgentMessage, SessionEntry, UserMessage } from "../log/entry-types.js";
import type { SessionView } from "./live-state.js";

/** Where the recovery marker the state points at stands in `messages`, or -1. */
export function anchorIndexIn(
  session: SessionView,
  anchorId: string,
  messages: readonly AgentMessage[],
  tailStart: number,
): number {
  const pending = /^pending-(\d+)$/.exec(anchorId);
  if (pending) return tailStart + Number(pending[1]);
  const entry = session.getEntry(anchorId) as SessionEntry | undefined;
  if (entry?.type !== "custom_message") return -1;
  const details = JSON.stringify(entry.details);
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as AgentMessage;
    if (m.role === "custom" && m.customType === KIT.recoveryMarker && JSON.stringify(m.details) === details) return i;
  }
  return -1;
}

/** User messages of the branch that a compaction took out of `messages`, oldest first (the branch is read only then). */
export function compactedUserMessages(
  branch: () => readonly SessionEntry[],
  messages: readonly AgentMessage[],
): UserMessage[] {
  if (messages[0]?.role !== "compactionSummary") return [];
  const present = new Set(messages.filter((m) => m.role === "user").map((m) => m.timestamp));
  const out: UserMessage[] = [];
  for (const entry of branch()) {
    if (entry.type === "message" && entry.message.role === "user" && !present.has(entry.message.timestamp)) {
      out.push(entry.message);
    }
  }
  return out;
}
