import type { AgentMessage } from "../src/log/entry-types.js";

/** A rough size in tokens (about four characters each), to compare a view with the full context. */
export function estimateTokens(messages: readonly AgentMessage[]): number {
  let chars = 0;
  for (const message of messages) {
    if ("content" in message) {
      const content = message.content;
      if (typeof content === "string") chars += content.length;
      else if (Array.isArray(content)) {
        for (const block of content) {
          if (block.type === "text") chars += block.text.length;
          else if (block.type === "thinking") chars += block.thinking.length;
          else if (block.type === "toolCall") chars += JSON.stringify(block.arguments ?? {}).length + block.name.length;
          else chars += 1000;
        }
      }
    }
    if ("summary" in message) chars += message.summary.length;
    if ("output" in message) chars += message.output.length + message.command.length;
  }
  return Math.ceil(chars / 4);
}
