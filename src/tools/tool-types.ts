/** Structurally the host's `ToolDefinition` / `AgentToolResult`, without importing the Pi package. */

import type { ImageContent, TextContent } from "../log/entry-types.js";

export type { ImageContent, TextContent };

export type ToolContent = TextContent | ImageContent;

export interface ToolResult<TDetails = unknown> {
  content: ToolContent[];
  details: TDetails;
}

/** A plain JSON schema object (the host accepts these as well as TypeBox schemas). */
export type JsonSchema = Record<string, unknown>;

export interface ToolDefinition<TParams = Record<string, unknown>, TDetails = unknown> {
  name: string;
  label: string;
  description: string;
  promptSnippet?: string;
  promptGuidelines?: string[];
  parameters: JsonSchema;
  execute(
    toolCallId: string,
    params: TParams,
    signal: AbortSignal | undefined,
    onUpdate: unknown,
    ctx: unknown,
  ): Promise<ToolResult<TDetails>>;
}

export function textResult<TDetails>(text: string, details: TDetails): ToolResult<TDetails> {
  return { content: [{ type: "text", text }], details };
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error("Operation aborted");
}
