import type { KitState } from "../reducers/state.js";
import type { AgentMessage, CustomMessage, UserMessage } from "../src/log/entry-types.js";
import { keepsBeforeMarker } from "./context-in-force.js";
import { policyReminder } from "./policy-reminder.js";
import { type Omitted, recoveryView } from "./recovery-view.js";
import { sameJson } from "./same-json.js";

export const GUIDANCE_TYPE = "context-kit/policy-guidance";

/** Everything one request's view depends on; live and offline pass the same values for the same request. */
export interface ViewInputs {
  /** What the host sends, in order: the `context` event's messages live, the host context of the leaf offline. */
  messages: readonly AgentMessage[];
  /** The folded state as of those messages. */
  state: KitState;
  /** The recovery marker the state's anchor points at, as the host renders its entry (null without an anchor). */
  anchor: AgentMessage | null;
  /** Every user message on the branch, oldest first; read only when a compaction took some of them out. */
  branchUsers: () => readonly UserMessage[];
  /** False: no recovery view even with an anchor (`view --no-recovery`). */
  recovery?: boolean;
}

export interface OutgoingView {
  messages: AgentMessage[];
  /** False when the host's messages go out as they are. */
  changed: boolean;
  /** Index in `messages` of the marker (of the first message after it when compacted away); -1 without a recovery view. */
  anchorIndex: number;
  omitted: Omitted;
  guidance: CustomMessage | null;
  reminder: CustomMessage | null;
}

/** Where the anchor's marker stands in `messages`: its last copy, matched on everything but the timestamp. */
function anchorIndexIn(messages: readonly AgentMessage[], anchor: AgentMessage | null): number {
  if (anchor?.role !== "custom") return -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as AgentMessage;
    if (
      m.role === "custom" &&
      m.customType === anchor.customType &&
      sameJson(m.content, anchor.content) &&
      sameJson(m.details, anchor.details)
    ) {
      return i;
    }
  }
  // A later compaction summarised the marker away: everything the host still sends comes after it.
  return messages.some((m) => m.role === "compactionSummary") ? 0 : -1;
}

/** User messages of the branch that `messages` no longer holds (a compaction took them out), oldest first. */
function compactedUsers(messages: readonly AgentMessage[], branchUsers: () => readonly UserMessage[]): UserMessage[] {
  if (!messages.some((m) => m.role === "compactionSummary")) return [];
  const present = messages.filter((m): m is UserMessage => m.role === "user");
  return branchUsers().filter(
    (u) => !present.some((p) => p.timestamp === u.timestamp && sameJson(p.content, u.content)),
  );
}

/**
 * The one projection: what the model is sent for a request. Root guidance first (as recorded on the branch), then the
 * recovery view when the branch has a recovery anchor (else the host's messages), then the policy reminder of denied
 * scopes and file problems. Request-local messages carry timestamp 0, so the view depends on its inputs alone.
 */
export function outgoingView(input: ViewInputs): OutgoingView {
  const { messages, state } = input;
  const omitted: Omitted = { assistant: 0, toolResult: 0, other: 0 };
  let out: AgentMessage[] = messages as AgentMessage[];
  let changed = false;
  let anchorIndex = input.recovery === false ? -1 : anchorIndexIn(messages, input.anchor);
  if (anchorIndex >= 0) {
    const view = recoveryView({
      messages,
      anchorIndex,
      earlierUserMessages: compactedUsers(messages, input.branchUsers),
      keepsCustom: keepsBeforeMarker,
    });
    anchorIndex = view.messages.indexOf(messages[anchorIndex] as AgentMessage);
    out = view.messages;
    Object.assign(omitted, view.omitted);
    changed = true;
  }
  const reminder = policyReminder(state, 0);
  if (reminder) {
    out = [...out, reminder];
    changed = true;
  }
  const text = state.inputs.guidance;
  const guidance: CustomMessage | null =
    text === null ? null : { role: "custom", customType: GUIDANCE_TYPE, content: text, display: false, timestamp: 0 };
  if (guidance) {
    out = [guidance, ...out];
    if (anchorIndex >= 0) anchorIndex++;
    changed = true;
  }
  return { messages: out, changed, anchorIndex, omitted, guidance, reminder };
}
