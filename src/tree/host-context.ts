import type { AgentMessage, CompactionEntry, ContextEditEntry, SessionEntry } from "../log/entry-types.js";
import type { SessionTree } from "./session-tree.js";

export interface ModelRef {
  provider: string;
  modelId: string;
}

/** What the host sends for a leaf (its `buildSessionContext`), plus the entry each message comes from. */
export interface HostContext {
  messages: AgentMessage[];
  /** `sources[i]` is the id of the entry that produced `messages[i]`. */
  sources: string[];
  thinkingLevel: string;
  model: ModelRef | null;
}

const ms = (iso: string) => new Date(iso).getTime();

/** The message an entry contributes to the context, by the host's rules, or null. */
export function entryMessage(entry: SessionEntry): AgentMessage | null {
  switch (entry.type) {
    case "message":
      // A record without its message is kept (E_SCHEMA); the host would fail on it, the kit skips it.
      return entry.message ?? null;
    case "custom_message":
      return {
        role: "custom",
        customType: entry.customType,
        content: entry.content,
        display: entry.display,
        details: entry.details,
        timestamp: ms(entry.timestamp),
      };
    case "branch_summary":
      return entry.summary
        ? { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: ms(entry.timestamp) }
        : null;
    default:
      return null;
  }
}

/**
 * Pi 1.x reads missing content as empty ("" for system messages, [] otherwise; message entries of other roles keep
 * theirs); 0.73 passed it through. Only damaged files lack content, and they fail the schema check.
 */
function withContent(entry: SessionEntry, message: AgentMessage): AgentMessage {
  if ((message as { content?: unknown }).content != null) return message;
  if (entry.type === "custom_message") return { ...message, content: [] } as AgentMessage;
  if (message.role === "system") return { ...message, content: "" };
  if (message.role === "user" || message.role === "assistant" || message.role === "toolResult") {
    return { ...message, content: [] };
  }
  return message;
}

/** Content only Pi 1.x writes: a branch holding any of it was written, and is read, by a 1.x host. */
export function writtenByNewLine(entry: SessionEntry): boolean {
  return (
    isSystemMessage(entry) ||
    entry.type === "usage" ||
    entry.type === "context_edit" ||
    (entry.type === "compaction" && entry.systemMessage !== undefined)
  );
}

const isSystemMessage = (entry: SessionEntry) => entry.type === "message" && entry.message?.role === "system";

/** A 1.x `context_edit` applied to the messages of its target: omitted, or the content replaced. */
function edited(messages: AgentMessage[], edit: ContextEditEntry | undefined): AgentMessage[] {
  if (!edit) return messages;
  const replacement = edit.replacement;
  if (replacement === null) return [];
  return messages.map((message) => {
    const role = message.role;
    if (role !== "user" && role !== "assistant" && role !== "toolResult" && role !== "custom") return message;
    const content =
      (role === "assistant" || role === "toolResult") && typeof replacement.content === "string"
        ? [{ type: "text", text: replacement.content }]
        : replacement.content;
    return { ...message, content } as AgentMessage;
  });
}

/** Replays the host's context building for the branch ending at `leafId` (undefined: the active leaf). */
export function buildHostContext(tree: SessionTree, leafId?: string | null): HostContext {
  if (leafId === null) return { messages: [], sources: [], thinkingLevel: "off", model: null };
  const leaf = leafId !== undefined && tree.get(leafId) ? leafId : tree.activeLeafId;
  return contextOfPath(leaf === null ? [] : tree.pathTo(leaf));
}

/**
 * The context of one branch: settings from the whole path; with a compaction, its checkpoint (the 1.x system
 * message) and summary, the kept entries (without 1.x system messages, which the checkpoint replaces), then what
 * follows it. 1.x `context_edit` entries among those apply to their targets. 0.73 files hold none of the 1.x parts,
 * so the same code gives 0.73's context for them; missing content is read the 1.x way only on branches a 1.x host
 * wrote (see `writtenByNewLine`).
 */
export function contextOfPath(path: readonly SessionEntry[]): HostContext {
  let thinkingLevel = "off";
  let model: ModelRef | null = null;
  let compactionIndex = -1;
  let newLine = false;
  path.forEach((entry, i) => {
    newLine ||= writtenByNewLine(entry);
    if (entry.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
    else if (entry.type === "model_change") model = { provider: entry.provider, modelId: entry.modelId };
    else if (entry.type === "message" && entry.message?.role === "assistant") {
      model = { provider: entry.message.provider, modelId: entry.message.model };
    } else if (entry.type === "compaction") compactionIndex = i;
  });

  let selected: readonly SessionEntry[] = path;
  const compaction = compactionIndex >= 0 ? (path[compactionIndex] as CompactionEntry) : null;
  if (compaction) {
    const kept = path.slice(0, compactionIndex);
    const first = kept.findIndex((entry) => entry.id === compaction.firstKeptEntryId);
    selected = [
      compaction,
      ...(first < 0 ? [] : kept.slice(first).filter((entry) => !isSystemMessage(entry))),
      ...path.slice(compactionIndex + 1),
    ];
  }
  const edits = new Map<string, ContextEditEntry>();
  for (const entry of selected) if (entry.type === "context_edit") edits.set(entry.targetId, entry);

  const messages: AgentMessage[] = [];
  const sources: string[] = [];
  selected.forEach((entry, i) => {
    let own: AgentMessage[];
    if (entry.type === "compaction") {
      // Only the newest compaction, first in the list, contributes; an older one in the kept range gives nothing.
      if (i > 0) return;
      const summary: AgentMessage = {
        role: "compactionSummary",
        summary: entry.summary,
        tokensBefore: entry.tokensBefore,
        timestamp: ms(entry.timestamp),
      };
      own = entry.systemMessage ? [entry.systemMessage, summary] : [summary];
    } else {
      const message = entryMessage(entry);
      own = message ? [newLine ? withContent(entry, message) : message] : [];
    }
    for (const message of edited(own, edits.get(entry.id))) {
      messages.push(message);
      sources.push(entry.id);
    }
  });
  return { messages, sources, thinkingLevel, model };
}
