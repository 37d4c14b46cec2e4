import { keepsBeforeMarker } from "../../projections/context-in-force.js";
import { policyReminder } from "../../projections/policy-reminder.js";
import { recoveryView } from "../../projections/recovery-view.js";
import type { KitState } from "../../reducers/state.js";
import type { AgentMessage, CustomMessage, SessionEntry } from "../log/entry-types.js";
import { type SessionView, stateWithTail, unpersistedTail } from "./live-state.js";
import { anchorIndexIn, compactedUserMessages } from "./recovery-anchor.js";

export interface ProjectionInput {
  session: SessionView & { getBranch(): unknown[] };
  state: KitState;
  messages: AgentMessage[];
  /** Project guidance to put first, labelled as project data (null when none). */
  guidance: CustomMessage | null;
  now: number;
}

export interface Projection {
  /** Undefined when nothing applies: the host's messages go out untouched. */
  messages: AgentMessage[] | undefined;
  state: KitState;
  anchorIndex: number;
}

/** What the model is sent for this request; the transcript is never changed. */
export function projectContext(input: ProjectionInput): Projection {
  const { session, messages } = input;
  const tail = unpersistedTail(session, messages);
  const state = tail.length > 0 ? stateWithTail(input.state, tail, session.getLeafId()) : input.state;
  let out: AgentMessage[] | undefined;
  let anchorIndex = -1;
  const anchorId = state.recovery.anchorId;
  if (anchorId !== null) {
    anchorIndex = anchorIndexIn(session, anchorId, messages, messages.length - tail.length);
    // A later compaction summarised the marker away: everything the host still sends comes after it.
    if (anchorIndex < 0 && messages[0]?.role === "compactionSummary") anchorIndex = 0;
    if (anchorIndex >= 0) {
      const earlier = compactedUserMessages(() => session.getBranch() as SessionEntry[], messages);
      out = recoveryView({
        messages,
        anchorIndex,
        earlierUserMessages: earlier,
        keepsCustom: keepsBeforeMarker,
      }).messages;
    }
  }
  const reminder = policyReminder(state, input.now);
  if (reminder) out = [...(out ?? messages), reminder];
  if (input.guidance) out = [input.guidance, ...(out ?? messages)];
  return { messages: out, state, anchorIndex };
}
