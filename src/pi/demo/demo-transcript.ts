import { ACCESS_DENIED } from "../../../reducers/contract/tool-details.js";
import type { SessionEntry, TextContent } from "../../log/entry-types.js";

const WIDTH = 110;

function textOf(content: string | readonly { type: string; text?: string }[]): string {
  if (typeof content === "string") return content;
  return content
    .filter((block): block is TextContent => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

/** The first line of a text, cut to the terminal's width. */
function firstLine(text: string, room: number): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > room ? `${line.slice(0, room - 1)}…` : line;
}

function row(label: string, text: string): string {
  return `  ${label.padEnd(8)}${firstLine(text, WIDTH - 10)}`;
}

/**
 * The demo session as read back from its file: each user prompt, each model reply and tool call, each tool result
 * (a denial with its code), and each message the kit appended. Kit state entries (digests) are not shown.
 */
export function demoTranscript(entries: readonly SessionEntry[]): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.type === "custom_message") {
      if (entry.customType.startsWith("context-kit/")) out.push(row("kit", textOf(entry.content)));
      continue;
    }
    if (entry.type !== "message") continue;
    const message = entry.message;
    if (message.role === "user") out.push(row("you", textOf(message.content)));
    else if (message.role === "assistant") {
      for (const block of message.content) {
        if (block.type === "text" && block.text.trim() !== "") out.push(row("model", block.text));
        if (block.type === "toolCall") out.push(row("model", `calls ${block.name} ${JSON.stringify(block.arguments)}`));
      }
    } else if (message.role === "toolResult") {
      const code = (message.details as { code?: unknown } | undefined)?.code;
      const label = code === ACCESS_DENIED ? "denied" : message.isError ? "error" : "result";
      out.push(row(label, textOf(message.content)));
    }
  }
  return out;
}
