import type {
  AgentMessage,
  AssistantContent,
  SessionEntry,
  SessionHeader,
  TextContent,
} from "../../src/log/entry-types.js";

const BASE_MS = Date.UTC(2026, 9, 24, 16, 43, 18);

type Distribute<T> = T extends SessionEntry ? Omit<T, "id" | "parentId" | "timestamp"> : never;
export type EntryBody = Distribute<SessionEntry>;

export interface ToolCallSpec {
  name: string;
  args?: Record<string, unknown>;
  id?: string;
}

/**
 * Builds Pi session files deterministically: ids are counters in 8 hex digits, times advance one second per entry.
 * Appends go under the current leaf; `at(id)` moves the leaf to start a branch, as the host's `/tree` does.
 */
export class SessionBuilder {
  readonly header: SessionHeader;
  readonly entries: SessionEntry[] = [];
  private leaf: string | null = null;
  private counter: number;

  constructor(options: { sessionId?: string; cwd?: string; seed?: number } = {}) {
    this.counter = (options.seed ?? 1) * 0x1000;
    this.header = {
      type: "session",
      version: 3,
      id: options.sessionId ?? "01a16ecb-97a2-771e-b335-b7aca163bc36",
      timestamp: new Date(BASE_MS).toISOString(),
      cwd: options.cwd ?? "/home/user/project",
    };
  }

  get leafId(): string | null {
    return this.leaf;
  }

  /** Moves the leaf (null: before the first entry). */
  at(id: string | null): this {
    this.leaf = id;
    return this;
  }

  nextTimestamp(): { iso: string; ms: number } {
    const ms = BASE_MS + (this.entries.length + 1) * 1000;
    return { iso: new Date(ms).toISOString(), ms };
  }

  append(body: EntryBody): string {
    const id = (this.counter++).toString(16).padStart(8, "0");
    const entry = { ...body, id, parentId: this.leaf, timestamp: this.nextTimestamp().iso } as SessionEntry;
    this.entries.push(entry);
    this.leaf = id;
    return id;
  }

  message(message: AgentMessage): string {
    return this.append({ type: "message", message });
  }

  user(text: string): string {
    return this.message({ role: "user", content: [{ type: "text", text }], timestamp: this.nextTimestamp().ms });
  }

  assistant(text: string, toolCalls: ToolCallSpec[] = [], stopReason?: string): string {
    const content: AssistantContent[] = text ? [{ type: "text", text }] : [];
    toolCalls.forEach((call, i) => {
      content.push({
        type: "toolCall",
        id: call.id ?? `call_${this.counter.toString(16)}_${i}`,
        name: call.name,
        arguments: call.args ?? {},
      });
    });
    return this.message({
      role: "assistant",
      content,
      api: "faux",
      provider: "faux",
      model: "faux-1",
      stopReason: stopReason ?? (toolCalls.length > 0 ? "toolUse" : "stop"),
      timestamp: this.nextTimestamp().ms,
    });
  }

  /** An OpenClaw `delivery-mirror` entry: an earlier turn's text copied to a chat channel; no model wrote it. */
  hostEcho(text: string): string {
    return this.message({
      role: "assistant",
      content: [{ type: "text", text }],
      api: "openai-responses",
      provider: "openclaw",
      model: "delivery-mirror",
      stopReason: "stop",
      timestamp: this.nextTimestamp().ms,
    } as AgentMessage);
  }

  /** The id of the n-th tool call of an assistant entry. */
  toolCallId(assistantId: string, n = 0): string {
    const entry = this.entries.find((e) => e.id === assistantId);
    if (entry?.type !== "message" || entry.message.role !== "assistant")
      throw new Error(`${assistantId}: no assistant`);
    const calls = entry.message.content.filter((b) => b.type === "toolCall");
    const call = calls[n];
    if (call?.type !== "toolCall") throw new Error(`${assistantId}: no tool call ${n}`);
    return call.id;
  }

  toolResult(toolCallId: string, toolName: string, text: string, details?: unknown, isError = false): string {
    const content: TextContent[] = [{ type: "text", text }];
    return this.message({
      role: "toolResult",
      toolCallId,
      toolName,
      content,
      ...(details === undefined ? {} : { details }),
      isError,
      timestamp: this.nextTimestamp().ms,
    });
  }

  /** An assistant tool call immediately answered by its result. */
  toolRound(name: string, args: Record<string, unknown>, resultText: string, details?: unknown, isError = false) {
    const call = this.assistant("", [{ name, args }]);
    const result = this.toolResult(this.toolCallId(call), name, resultText, details, isError);
    return { call, result };
  }

  customMessage(customType: string, content: string, details?: unknown, display = true): string {
    return this.append({
      type: "custom_message",
      customType,
      content,
      display,
      ...(details === undefined ? {} : { details }),
    });
  }

  custom(customType: string, data?: unknown): string {
    return this.append({ type: "custom", customType, ...(data === undefined ? {} : { data }) });
  }

  compaction(summary: string, firstKeptEntryId: string, tokensBefore = 1000): string {
    return this.append({ type: "compaction", summary, firstKeptEntryId, tokensBefore });
  }

  branchSummary(fromId: string, summary: string): string {
    return this.append({ type: "branch_summary", fromId, summary });
  }

  label(targetId: string, label: string | undefined): string {
    return this.append({ type: "label", targetId, label });
  }

  modelChange(provider: string, modelId: string): string {
    return this.append({ type: "model_change", provider, modelId });
  }

  thinking(thinkingLevel: string): string {
    return this.append({ type: "thinking_level_change", thinkingLevel });
  }

  sessionInfo(name: string): string {
    return this.append({ type: "session_info", name });
  }

  toJsonl(): string {
    return [this.header, ...this.entries].map((e) => JSON.stringify(e)).join("\n") + "\n";
  }
}
