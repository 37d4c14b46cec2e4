import type { AgentMessage } from "../src/log/entry-types.js";

export interface PairingViolation {
  index: number;
  code: "RESULT_WITHOUT_CALL" | "CALL_WITHOUT_RESULT";
  toolCallId: string;
}

/**
 * Real providers reject a tool result whose call is missing and a tool call whose result is missing. A call's
 * results must follow it before the next assistant message.
 */
export function toolPairingViolations(messages: readonly AgentMessage[]): PairingViolation[] {
  const violations: PairingViolation[] = [];
  // One map for the whole walk, emptied at each assistant message.
  const open = new Map<string, number>();
  const closeOpen = () => {
    for (const [toolCallId, index] of open) violations.push({ index, code: "CALL_WITHOUT_RESULT", toolCallId });
    open.clear();
  };
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as AgentMessage;
    if (message.role === "assistant") {
      if (open.size > 0) closeOpen();
      for (const block of message.content ?? []) {
        if (block?.type === "toolCall") open.set(block.id, index);
      }
    } else if (message.role === "toolResult") {
      if (!open.delete(message.toolCallId)) {
        violations.push({ index, code: "RESULT_WITHOUT_CALL", toolCallId: message.toolCallId });
      }
    }
  }
  closeOpen();
  return violations;
}

/** Drops tool results whose call is not in the list (their call was omitted by a projection). */
export function dropOrphanResults(messages: readonly AgentMessage[]): { messages: AgentMessage[]; dropped: number } {
  const calls = new Set<string>();
  const out: AgentMessage[] = [];
  let dropped = 0;
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const block of message.content ?? []) if (block?.type === "toolCall") calls.add(block.id);
    }
    if (message.role === "toolResult" && !calls.has(message.toolCallId)) {
      dropped++;
      continue;
    }
    out.push(message);
  }
  return { messages: out, dropped };
}
