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
  // The first call of any of the tools starts listing the root's folders for rg's exclusions, between other work,
  // so that a later grep finds them listed (tools that are made and never called list nothing).
  let prefilled = !deps.ripgrep;
  const first = <P>(tool: ToolDefinition<P>): ToolDefinition<P> => ({
    ...tool,
    execute(...args) {
      if (!prefilled) {
        prefilled = true;
        void deps.markers.prefill(deps.policy.root);
      }
      return tool.execute(...args);
    },
  });
  return {
    read: first(createReadTool(deps)),
    grep: first(createGrepTool(deps)),
    find: first(createFindTool(deps)),
    ls: first(createLsTool(deps)),
    write: first(createWriteTool(deps)),
    edit: first(createEditTool(deps)),
  };
}
