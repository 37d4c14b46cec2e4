import type { KitEvent, NestedCallRef, NestedCalls, ToolCallRef } from "../../reducers/contract/events.js";
import type { AgentMessage, SessionEntry } from "../log/entry-types.js";
import { kitRecordOf } from "./kit-records.js";

export function textOf(message: AgentMessage): string {
  if (!("content" in message)) return "";
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const block of content) {
    if (block && block.type === "text") text += (text ? "\n" : "") + block.text;
  }
  return text;
}

/** The host's own result for a call cancelled before it ran: one text block, "Operation aborted". */
export function isCancelledResult(content: unknown): boolean {
  if (!Array.isArray(content) || content.length !== 1) return false;
  const block = content[0] as { type?: unknown; text?: unknown } | null;
  return block?.type === "text" && block.text === "Operation aborted";
}

const NESTED_STATUS = new Set(["ok", "error", "unfinished"]);

/** A tool result's `nestedCalls` record (Pi 0.99+); null when there is none. A malformed call is left out. */
export function nestedCallsOf(record: unknown): NestedCalls | null {
  if (typeof record !== "object" || record === null) return null;
  const { calls, complete } = record as { calls?: unknown; complete?: unknown };
  if (!Array.isArray(calls) || calls.length === 0) return null;
  const refs: NestedCallRef[] = [];
  for (const c of calls as Record<string, unknown>[]) {
    if (typeof c !== "object" || c === null || typeof c.name !== "string" || !NESTED_STATUS.has(String(c.status))) {
      continue;
    }
    const ref: NestedCallRef = { id: String(c.id ?? ""), name: c.name, status: c.status as NestedCallRef["status"] };
    if (c.arguments !== undefined) ref.args = c.arguments;
    if (typeof c.error === "string") ref.error = c.error;
    refs.push(ref);
  }
  return { calls: refs, complete: complete === true && refs.length === calls.length };
}

/** Normalises one session entry into the event the reducers fold. */
export function toEvent(entry: SessionEntry): KitEvent {
  const entryId = entry.id;
  switch (entry.type) {
    case "message": {
      const message = entry.message;
      if (!message || typeof message !== "object") return { kind: "other", entryId };
      if (message.role === "user") return { kind: "user", entryId, text: textOf(message) };
      if (message.role === "assistant") {
        const content = Array.isArray(message.content) ? message.content : [];
        // Sized before it is filled: an array grown from empty by push takes room for 17 calls.
        let count = 0;
        for (const b of content) if (b?.type === "toolCall") count++;
        const toolCalls = new Array<ToolCallRef>(count);
        let i = 0;
        for (const b of content) {
          if (b?.type !== "toolCall") continue;
          const call = b as { id: unknown; name: unknown; arguments?: unknown };
          toolCalls[i++] = { id: String(call.id), name: String(call.name ?? ""), args: call.arguments ?? {} };
        }
        return {
          kind: "assistant",
          entryId,
          text: textOf(message),
          toolCalls,
          stopReason: String(message.stopReason ?? "stop"),
          provider: String(message.provider ?? ""),
          model: String(message.model ?? ""),
        };
      }
      if (message.role === "toolResult") {
        const nested = nestedCallsOf((message as { nestedCalls?: unknown }).nestedCalls);
        const cancelled = message.isError === true && isCancelledResult(message.content);
        const event: Extract<KitEvent, { kind: "toolResult" }> = {
          kind: "toolResult",
          entryId,
          toolCallId: String(message.toolCallId),
          toolName: String(message.toolName ?? ""),
          isError: message.isError === true,
          details: message.details,
          content: message.content,
        };
        // Set only when present, not spread in: a spread builds an object to copy from on every result.
        if (nested) event.nested = nested;
        if (cancelled) event.cancelled = true;
        return event;
      }
      if (message.role === "custom") return { kind: "hostMessage", entryId };
      return { kind: "other", entryId };
    }
    case "custom":
    case "custom_message": {
      const record = kitRecordOf(entry);
      if (record) return { kind: "kit", entryId, record };
      return entry.type === "custom_message" ? { kind: "hostMessage", entryId } : { kind: "other", entryId };
    }
    case "model_change":
      return { kind: "modelChange", entryId, provider: entry.provider, modelId: entry.modelId };
    case "thinking_level_change":
      return { kind: "thinkingChange", entryId, thinkingLevel: entry.thinkingLevel };
    case "compaction":
    case "branch_summary":
      return { kind: "other", entryId, boundary: true };
    default:
      return { kind: "other", entryId };
  }
}
