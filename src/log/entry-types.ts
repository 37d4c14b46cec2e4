/** Pi session records (format v3), as the kit reads them. Fields the host adds later are kept untouched. */

export interface TextContent {
  type: "text";
  text: string;
}
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}
export interface ThinkingContent {
  type: "thinking";
  thinking: string;
}
export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}
export type AssistantContent = TextContent | ThinkingContent | ToolCall;

export interface UserMessage {
  role: "user";
  content: string | (TextContent | ImageContent)[];
  timestamp: number;
}
export interface AssistantMessage {
  role: "assistant";
  content: AssistantContent[];
  api?: string;
  provider: string;
  model: string;
  usage?: unknown;
  stopReason: string;
  errorMessage?: string;
  timestamp: number;
}
export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  details?: unknown;
  isError: boolean;
  timestamp: number;
}
export interface CustomMessage {
  role: "custom";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
  timestamp: number;
}
export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: string;
  exitCode: number | undefined;
  cancelled: boolean;
  truncated: boolean;
  excludeFromContext?: boolean;
  timestamp: number;
}
export interface BranchSummaryMessage {
  role: "branchSummary";
  summary: string;
  fromId: string;
  timestamp: number;
}
/** Pi 1.x: the prompt and tool state (the first one declares it, later ones patch it). Never in 0.73 files. */
export interface SystemMessage {
  role: "system";
  content: string | TextContent[];
  /** Named prompt sections; a later message replaces sections by name, null removes one. */
  sections?: Record<string, string | null>;
  toolsAdded?: { name: string; description?: string; parameters?: unknown }[];
  toolsRemoved?: { name: string }[];
  timestamp: number;
}
export interface CompactionSummaryMessage {
  role: "compactionSummary";
  summary: string;
  tokensBefore: number;
  timestamp: number;
}

export type AgentMessage =
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | CustomMessage
  | BashExecutionMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage
  | SystemMessage;

export interface SessionHeader {
  type: "session";
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  parentSession?: string;
}

interface EntryBase {
  id: string;
  parentId: string | null;
  timestamp: string;
}
export interface MessageEntry extends EntryBase {
  type: "message";
  message: AgentMessage;
}
export interface ThinkingLevelChangeEntry extends EntryBase {
  type: "thinking_level_change";
  thinkingLevel: string;
}
export interface ModelChangeEntry extends EntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}
export interface CompactionEntry extends EntryBase {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  fromHook?: boolean;
  /** Pi 1.x: the prompt and tool state at the compaction boundary; the context starts with it. */
  systemMessage?: SystemMessage;
}
export interface BranchSummaryEntry extends EntryBase {
  type: "branch_summary";
  fromId: string;
  summary: string;
  details?: unknown;
  fromHook?: boolean;
}
export interface CustomEntry extends EntryBase {
  type: "custom";
  customType: string;
  data?: unknown;
}
export interface CustomMessageEntry extends EntryBase {
  type: "custom_message";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
}
export interface LabelEntry extends EntryBase {
  type: "label";
  targetId: string;
  label: string | undefined;
}
export interface SessionInfoEntry extends EntryBase {
  type: "session_info";
  name?: string;
}
/** Pi 1.x: token usage outside a message (e.g. cache warming); never in the context. */
export interface UsageEntry extends EntryBase {
  type: "usage";
  kind: string;
  provider: string;
  model: string;
  usage: unknown;
  note?: string;
}
/** Pi 1.x: omits (replacement null) or replaces the content of one earlier entry in future contexts. */
export interface ContextEditEntry extends EntryBase {
  type: "context_edit";
  targetId: string;
  replacement: { content: string | (TextContent | ImageContent | ThinkingContent | ToolCall)[] } | null;
}
export type KnownEntry =
  | MessageEntry
  | ThinkingLevelChangeEntry
  | ModelChangeEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | LabelEntry
  | SessionInfoEntry
  | UsageEntry
  | ContextEditEntry;

export type SessionEntry = KnownEntry;

export const KNOWN_ENTRY_TYPES: ReadonlySet<string> = new Set([
  "message",
  "thinking_level_change",
  "model_change",
  "compaction",
  "branch_summary",
  "custom",
  "custom_message",
  "label",
  "session_info",
  "usage",
  "context_edit",
]);
