import { createHash } from "node:crypto";
import stableStringify from "fast-json-stable-stringify";

interface SystemMessage {
  role: "system";
  content?: unknown;
  sections?: Record<string, string | null>;
  toolsAdded?: { name: string; description?: unknown; parameters?: unknown; constrainedSampling?: unknown }[];
  toolsRemoved?: { name: string }[];
}

const isSystem = (message: unknown): message is SystemMessage =>
  (message as { role?: unknown } | null)?.role === "system";

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => (b?.type === "text" && typeof b.text === "string" ? b.text : "")).join("");
}

/**
 * What a request's system messages add up to, replayed the way the 1.x host documents it: non-empty contents
 * appended in order, sections patched by name (`null` removes one), tools added and removed by name. The host sends
 * either the patches in place or, when a `context` handler changed the messages, one replayed head: both add up to
 * the same state.
 */
export function systemState(messages: readonly unknown[]) {
  const content: string[] = [];
  const sections = new Map<string, string>();
  const tools = new Map<string, unknown>();
  let count = 0;
  for (const message of messages) {
    if (!isSystem(message)) continue;
    count++;
    const text = textOf(message.content);
    if (text.length > 0) content.push(text);
    for (const [name, value] of Object.entries(message.sections ?? {})) {
      if (value === null) sections.delete(name);
      else sections.set(name, value);
    }
    for (const tool of message.toolsRemoved ?? []) tools.delete(tool.name);
    for (const tool of message.toolsAdded ?? []) {
      const { name, description, parameters, constrainedSampling } = tool;
      tools.set(name, { name, description, parameters, constrainedSampling });
    }
  }
  const state = { content: content.join("\n\n"), sections: Object.fromEntries(sections), tools: [...tools.values()] };
  return { state, count };
}

/** The system part of a request digest: SHA-256 of the replayed state, and how many system messages it carried. */
export function systemDigest(messages: readonly unknown[]): { digest: string; messages: number } {
  const { state, count } = systemState(messages);
  const hash = createHash("sha256").update(stableStringify(state)).digest("hex");
  return { digest: `sha256:${hash}`, messages: count };
}
