import type { AgentMessage, UserMessage } from "../src/log/entry-types.js";
import { dropOrphanResults } from "./tool-pairing.js";

export interface RecoveryViewInput {
  /** What the host would send, in order (the `context` event's messages, or the host context of a leaf). */
  messages: readonly AgentMessage[];
  /** Index of the recovery marker in `messages`. */
  anchorIndex: number;
  /** User messages on the branch that `messages` no longer holds (before a compaction), oldest first. */
  earlierUserMessages: readonly UserMessage[];
  /** Host messages before the marker that are still in force (the kit's policy context). */
  keepsCustom: (customType: string) => boolean;
}

export interface Omitted {
  assistant: number;
  toolResult: number;
  other: number;
}

export interface RecoveryView {
  messages: AgentMessage[];
  omitted: Omitted;
}

/**
 * The request-local recovery view: every user instruction on the branch (older constraints included), the host
 * context still in force, the marker and everything after it. Earlier assistant narratives, tool results, bash runs
 * and summaries are left out of the request; the transcript itself is untouched.
 */
export function recoveryView(input: RecoveryViewInput): RecoveryView {
  const { messages, anchorIndex } = input;
  const omitted: Omitted = { assistant: 0, toolResult: 0, other: 0 };
  const kept: AgentMessage[] = [...input.earlierUserMessages];
  for (let i = 0; i < anchorIndex; i++) {
    const message = messages[i] as AgentMessage;
    if (message.role === "user") kept.push(message);
    else if (message.role === "custom" && input.keepsCustom(message.customType)) kept.push(message);
    else if (message.role === "assistant") omitted.assistant++;
    else if (message.role === "toolResult") omitted.toolResult++;
    else omitted.other++;
  }
  const after = dropOrphanResults(messages.slice(anchorIndex));
  omitted.toolResult += after.dropped;
  return { messages: [...kept, ...after.messages], omitted };
}
