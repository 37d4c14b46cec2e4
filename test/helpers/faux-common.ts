/**
 * Shared by the in-process harness (faux-sdk.ts) and the CLI extension (faux-cli-ext.ts): the scripted-step format,
 * how a step becomes an AssistantMessage, and how a provider request is recorded.
 *
 * Type-only imports from Pi here: this module must not load Pi (faux-sdk.ts sets env vars before Pi is imported,
 * and the CLI extension gets its Pi modules through jiti's alias).
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AssistantMessage, Context, Message, StreamOptions } from "@mariozechner/pi-ai";

export const FAUX_PROVIDER = "faux";
export const FAUX_API = "faux";
export const FAUX_MODEL_ID = "faux-1";
/** `--model` value for the CLI. */
export const FAUX_MODEL_REF = `${FAUX_PROVIDER}/${FAUX_MODEL_ID}`;
/** The text of the error reply when the script is exhausted (the same text pi-ai's faux provider uses). */
export const FAUX_EXHAUSTED = "No more faux responses queued";

export const FAUX_MODEL_DEF = {
  id: FAUX_MODEL_ID,
  name: "Faux Model",
  reasoning: false,
  input: ["text", "image"] as ("text" | "image")[],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 128_000,
  maxTokens: 16_384,
};

export interface FauxToolCallSpec {
  name: string;
  args?: Record<string, unknown>;
  /** Default: a fresh random id. */
  id?: string;
}

/** One scripted provider reply. JSON-serialisable, so the same script works in-process and through PI_FAUX_SCRIPT. */
export interface FauxStep {
  text?: string;
  thinking?: string;
  toolCalls?: FauxToolCallSpec[];
  /** Default: "toolUse" when there are tool calls, else "stop". "error"/"aborted" end the run like a failed provider. */
  stopReason?: AssistantMessage["stopReason"];
  errorMessage?: string;
  /** Wait this long before replying. An abort during the wait turns the reply into stopReason "aborted". */
  delayMs?: number;
  /** Never reply on its own: wait until the request is aborted (e.g. `session.abort()`), then reply "aborted". */
  hang?: boolean;
  /** Files (relative to the working directory) written just before this reply, e.g. a log that grows between polls. */
  files?: Record<string, string>;
}

/** A provider error reply: Pi records stopReason "error"; `pi -p` exits 1. */
export function fauxError(errorMessage = "faux provider error"): FauxStep {
  return { stopReason: "error", errorMessage };
}

/** An aborted reply, as a provider returns it after an abort (partial text optional). */
export function fauxAborted(text?: string): FauxStep {
  return { ...(text === undefined ? {} : { text }), stopReason: "aborted", errorMessage: "Request was aborted" };
}

/** A compact view of one message as the model received it (after `context` handlers and convertToLlm). */
export interface FauxMessageView {
  role: Message["role"];
  /** Text blocks joined with "\n"; images appear as "[image]". */
  text: string;
  toolCalls?: { id: string; name: string; args: Record<string, unknown> }[];
  toolName?: string;
  toolCallId?: string;
  isError?: boolean;
  stopReason?: string;
}

/** What the model received on one provider request. */
export interface FauxRequest {
  /** 0-based, per harness (SDK) or per process run (CLI). */
  index: number;
  /** Index of the script step that answered, or null when the script was exhausted (reply: FAUX_EXHAUSTED error). */
  step: number | null;
  systemPrompt: string;
  /** Tool names offered to the model. */
  tools: string[];
  roles: Message["role"][];
  messages: FauxMessageView[];
  /** The exact LLM messages (deep copy). */
  llmMessages: Message[];
}

type Block = { type: string; text?: string; thinking?: string; id?: string; name?: string; arguments?: unknown };

function blocksText(content: string | readonly Block[]): string {
  if (typeof content === "string") return content;
  return content
    .map((b) => (b.type === "text" ? (b.text ?? "") : b.type === "image" ? "[image]" : ""))
    .filter((s) => s !== "")
    .join("\n");
}

export function viewMessage(m: Message): FauxMessageView {
  if (m.role === "assistant") {
    const blocks = m.content as readonly Block[];
    const calls = blocks
      .filter((b) => b.type === "toolCall")
      .map((b) => ({ id: b.id ?? "", name: b.name ?? "", args: (b.arguments ?? {}) as Record<string, unknown> }));
    return {
      role: "assistant",
      text: blocksText(blocks),
      ...(calls.length > 0 ? { toolCalls: calls } : {}),
      stopReason: m.stopReason,
    };
  }
  if (m.role === "toolResult") {
    return {
      role: "toolResult",
      text: blocksText(m.content as readonly Block[]),
      toolName: m.toolName,
      toolCallId: m.toolCallId,
      isError: m.isError,
    };
  }
  return { role: m.role, text: blocksText(m.content as string | readonly Block[]) };
}

export function recordRequest(index: number, step: number | null, context: Context): FauxRequest {
  const llmMessages = structuredClone(context.messages);
  return {
    index,
    step,
    systemPrompt: context.systemPrompt ?? "",
    tools: (context.tools ?? []).map((t) => t.name),
    roles: llmMessages.map((m) => m.role),
    messages: llmMessages.map(viewMessage),
    llmMessages,
  };
}

/** All text the model saw in one request (system prompt excluded), for quick `toContain` checks. */
export function requestText(req: FauxRequest): string {
  return req.messages.map((m) => `${m.role}: ${m.text}`).join("\n");
}

export function stepToAssistantMessage(step: FauxStep): AssistantMessage {
  const content: AssistantMessage["content"] = [];
  if (step.thinking !== undefined) content.push({ type: "thinking", thinking: step.thinking });
  if (step.text !== undefined) content.push({ type: "text", text: step.text });
  for (const call of step.toolCalls ?? []) {
    content.push({
      type: "toolCall",
      id: call.id ?? `call_${randomUUID().slice(0, 12)}`,
      name: call.name,
      arguments: call.args ?? {},
    });
  }
  const stopReason = step.stopReason ?? (step.toolCalls?.length ? "toolUse" : "stop");
  return {
    role: "assistant",
    content,
    api: FAUX_API,
    provider: FAUX_PROVIDER,
    model: FAUX_MODEL_ID,
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason,
    ...(step.errorMessage === undefined ? {} : { errorMessage: step.errorMessage }),
    timestamp: Date.now(),
  };
}

/**
 * Resolves after `ms` (never, when ms is Infinity) or as soon as `signal` aborts. A timer stays armed meanwhile: a
 * bare pending promise does not keep Node alive, and `pi -p` would silently exit 0 in the middle of a "hang".
 */
export function abortableWait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : setInterval(() => {}, 60_000);
    function done() {
      clearTimeout(timer);
      clearInterval(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Applies a step's timing (delayMs / hang); the faux provider then turns an aborted signal into an aborted reply. */
export async function applyStepTiming(step: FauxStep, options: StreamOptions | undefined): Promise<void> {
  if (step.hang) await abortableWait(Number.POSITIVE_INFINITY, options?.signal);
  else if (step.delayMs !== undefined && step.delayMs > 0) await abortableWait(step.delayMs, options?.signal);
}

/** Writes a step's `files` under the working directory before the reply. */
export function applyStepFiles(step: FauxStep, cwd: string): void {
  if (step.files) writeFiles(cwd, step.files);
}

/** Writes `files` (relative path → content) under `baseDir`, creating directories. */
export function writeFiles(baseDir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(baseDir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

/** Parsed lines of a JSONL file (a session file: header first); [] if there is no such file. Bad lines throw. */
export function readJsonLines(path: string | undefined): Record<string, unknown>[] {
  if (path === undefined) return [];
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
