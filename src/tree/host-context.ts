import type { AgentMessage, CompactionEntry, ContextEditEntry, SessionEntry, UserMessage } from "../log/entry-types.js";
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

/** The user messages of a branch, root first: what a recovery view repeats. */
export function branchUsers(path: readonly SessionEntry[]): UserMessage[] {
  const users: UserMessage[] = [];
  for (const entry of path) if (entry.type === "message" && entry.message?.role === "user") users.push(entry.message);
  return users;
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
  const settings: Settings = { thinkingLevel: "off", model: null };
  let compactionIndex = -1;
  let newLine = false;
  path.forEach((entry, i) => {
    newLine ||= writtenByNewLine(entry);
    settle(settings, entry);
    if (entry.type === "compaction") compactionIndex = i;
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
  return { messages, sources, ...settings };
}

type Settings = Pick<HostContext, "thinkingLevel" | "model">;

/** The thinking level and model after `entry`: the last change, or the last assistant reply's model. */
function settle(settings: Settings, entry: SessionEntry): void {
  if (entry.type === "thinking_level_change") settings.thinkingLevel = entry.thinkingLevel;
  else if (entry.type === "model_change") settings.model = { provider: entry.provider, modelId: entry.modelId };
  else if (entry.type === "message" && entry.message?.role === "assistant") {
    settings.model = { provider: entry.message.provider, modelId: entry.message.model };
  }
}

/** A host context as the `context` hook sees it (1.x leaves its `system` messages out), and those messages. */
export interface SplitContext {
  host: HostContext;
  /** The 1.x `system` messages (prompt and tool declarations), which no projection sees. */
  system: AgentMessage[];
}

/** The context with its 1.x `system` messages apart. */
export function splitSystem(full: HostContext): SplitContext {
  if (!full.messages.some((m) => m.role === "system")) return { host: full, system: [] };
  const keep = full.messages.map((m) => m.role !== "system");
  const host = {
    ...full,
    messages: full.messages.filter((_, i) => keep[i]),
    sources: full.sources.filter((_, i) => keep[i]),
  };
  return { host, system: full.messages.filter((_, i) => !keep[i]) };
}

/**
 * The host context of a branch followed down (a session's requests in file order), each call the same as
 * `splitSystem(contextOfPath(path))`: entries that only append a message extend the previous context in place; a
 * compaction, a 1.x context edit or other 1.x content, or a path that was cut (`restart`) rebuilds it from the path.
 * The context returned is valid until the next call.
 */
export class GrowingContext {
  private current: SplitContext | null = null;
  /** Nothing on the path rereads earlier messages: later entries may extend the context in place. */
  private plain = false;

  /** The path no longer extends the last one. */
  restart(): void {
    this.current = null;
  }

  /** The context of `path`, whose last `added` entries are new since the previous call. */
  of(path: readonly SessionEntry[], added: readonly SessionEntry[]): SplitContext {
    const current = this.current;
    if (current !== null && this.plain && added.every(extendsPlainly)) {
      const { host } = current;
      for (const entry of added) {
        settle(host, entry);
        const message = entryMessage(entry);
        if (!message) continue;
        host.messages.push(message);
        host.sources.push(entry.id);
      }
      return current;
    }
    this.current = splitSystem(contextOfPath(path));
    this.plain = !path.some(isOneX);
    return this.current;
  }
}

/** An entry whose message (if any) is only appended: no compaction, 1.x context edit or 1.x content. */
function extendsPlainly(entry: SessionEntry): boolean {
  return entry.type !== "compaction" && entry.type !== "context_edit" && !writtenByNewLine(entry);
}

/** 1.x content: a context edit can target a later entry, and 1.x content changes how every message is read. */
const isOneX = (e: SessionEntry) => e.type === "context_edit" || writtenByNewLine(e);
