import type { AgentMessage } from "../log/entry-types.js";
import { messageDigest, requestDigest } from "../view/request-digest.js";

const REUSABLE = new Set(["user", "assistant", "toolResult"]);

/** Cheap facts that change when a message at a position is replaced; content sizes stand for the content. */
function witness(message: AgentMessage): string {
  const m = message as { role: string; timestamp?: unknown; toolCallId?: string };
  let size = 0;
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") size = content.length;
  else if (Array.isArray(content)) {
    for (const block of content as { type?: string; text?: string; thinking?: string; data?: string }[]) {
      size += 1 + (block?.text?.length ?? 0) + (block?.thinking?.length ?? 0) + (block?.data?.length ?? 0);
    }
  }
  return `${m.role}\u0000${String(m.timestamp)}\u0000${m.toolCallId ?? ""}\u0000${size}`;
}

/**
 * Request digests for one live process. The host hands every `context` call a fresh deep copy of its messages, so a
 * user, assistant or tool result message's digest is kept by position and reused while the message at that position
 * shows the same role, timestamp, tool call and content size; only new or replaced messages are hashed again.
 */
export class LiveDigests {
  private witnesses: string[] = [];
  private digests: string[] = [];

  digest(hostMessages: readonly AgentMessage[], view: readonly AgentMessage[]): string {
    const known = new Map<AgentMessage, string>();
    for (let i = 0; i < hostMessages.length; i++) {
      const message = hostMessages[i] as AgentMessage;
      // Host messages, summaries and bash runs are few and small, and share stamps more easily: hashed every time.
      if (!REUSABLE.has(message.role)) continue;
      const w = witness(message);
      let d = this.witnesses[i] === w ? this.digests[i] : undefined;
      if (d === undefined) {
        d = messageDigest(message);
        this.witnesses[i] = w;
        this.digests[i] = d;
      }
      known.set(message, d);
    }
    this.witnesses.length = hostMessages.length;
    this.digests.length = hostMessages.length;
    return requestDigest(view, (message) => known.get(message) ?? messageDigest(message));
  }
}
