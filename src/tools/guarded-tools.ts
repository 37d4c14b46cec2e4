import { createEditTool } from "./edit-tool.js";
import { createFindTool } from "./find-tool.js";
import { createGrepTool } from "./grep-tool.js";
import { createLsTool } from "./ls-tool.js";
import { createReadTool } from "./read-tool.js";
import type { EditParams, FindParams, GrepParams, LsParams, ReadParams, WriteParams } from "./schemas.js";
import { type GuardedToolsOptions, resolveToolDeps } from "./tool-deps.js";
import type { ToolDefinition } from "./tool-types.js";
import { createWriteTool } from "./write-tool.js";

export const FILE_TOOL_NAMES = ["read", "grep", "find", "ls", "write", "edit"] as const;
export type FileToolName = (typeof FILE_TOOL_NAMES)[number];

export interface GuardedTools {
  read: ToolDefinition<ReadParams>;
  grep: ToolDefinition<GrepParams>;
  find: ToolDefinition<FindParams>;
  ls: ToolDefinition<LsParams>;
  write: ToolDefinition<WriteParams>;
  edit: ToolDefinition<EditParams>;
}

/** The six guarded replacements for the host's file tools, sharing one policy, denial tracker and mutation queue. */
export function createGuardedTools(options: GuardedToolsOptions): GuardedTools {
  const deps = resolveToolDeps(options);
  return {
    read: createReadTool(deps),
    grep: createGrepTool(deps),
    find: createFindTool(deps),
    ls: createLsTool(deps),
    write: createWriteTool(deps),
    edit: createEditTool(deps),
  };
}
