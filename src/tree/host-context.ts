import type { AgentMessage, CompactionEntry, SessionEntry } from "../log/entry-types.js";
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

/** Replays the host's context building for the branch ending at `leafId` (undefined: the active leaf). */
export function buildHostContext(tree: SessionTree, leafId?: string | null): HostContext {
  if (leafId === null) return { messages: [], sources: [], thinkingLevel: "off", model: null };
  const leaf = leafId !== undefined && tree.get(leafId) ? leafId : tree.activeLeafId;
  return contextOfPath(leaf === null ? [] : tree.pathTo(leaf));
}

export function contextOfPath(path: readonly SessionEntry[]): HostContext {
  let thinkingLevel = "off";
  let model: ModelRef | null = null;
  let compaction: CompactionEntry | null = null;
  let compactionIndex = -1;
  path.forEach((entry, i) => {
    if (entry.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
    else if (entry.type === "model_change") model = { provider: entry.provider, modelId: entry.modelId };
    else if (entry.type === "message" && entry.message?.role === "assistant") {
      model = { provider: entry.message.provider, modelId: entry.message.model };
    } else if (entry.type === "compaction") {
      compaction = entry;
      compactionIndex = i;
    }
  });

  const messages: AgentMessage[] = [];
  const sources: string[] = [];
  const add = (entry: SessionEntry) => {
    const message = entryMessage(entry);
    if (message) {
      messages.push(message);
      sources.push(entry.id);
    }
  };
  const found = compaction as CompactionEntry | null;
  if (found) {
    messages.push({
      role: "compactionSummary",
      summary: found.summary,
      tokensBefore: found.tokensBefore,
      timestamp: ms(found.timestamp),
    });
    sources.push(found.id);
    let kept = false;
    for (let i = 0; i < compactionIndex; i++) {
      const entry = path[i] as SessionEntry;
      if (entry.id === found.firstKeptEntryId) kept = true;
      if (kept) add(entry);
    }
    for (let i = compactionIndex + 1; i < path.length; i++) add(path[i] as SessionEntry);
  } else {
    for (const entry of path) add(entry);
  }
  return { messages, sources, thinkingLevel, model };
}
