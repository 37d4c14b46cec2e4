export { denialResult } from "./denial-result.js";
export {
  createMemoryDenialTracker,
  type DenialNote,
  type DenialTracker,
  type MemoryDenialTracker,
} from "./denial-tracker.js";
export { applyEdits, type EditOutcome, type TextEdit } from "./edit-apply.js";
export { DEFAULT_READ_LIMITS, type ReadLimits } from "./file-inspect.js";
export { nodeToolFileOperations, type ReadHandle, type ToolFileOperations } from "./file-ops.js";
export { createGuardedTools, FILE_TOOL_NAMES, type FileToolName, type GuardedTools } from "./guarded-tools.js";
export {
  HOST_TOOLS_CONFIG,
  type HostCapabilities,
  HostCapabilitiesError,
  type HostCapabilityContext,
  loadHostCapabilities,
  RESERVED_TOOL_NAMES,
} from "./host-capabilities.js";
export {
  type InputIssueReason,
  isToolInputIssue,
  resultNeedsErrorFlag,
  TOOL_INPUT_ERROR,
  type ToolInputIssueDetails,
} from "./issues.js";
export * from "./schemas.js";
export {
  DEFAULT_TOOL_LIMITS,
  type FindGlobs,
  type GuardedToolsOptions,
  type MutationQueue,
  type ToolLimits,
} from "./tool-deps.js";
export type { ImageContent, JsonSchema, TextContent, ToolContent, ToolDefinition, ToolResult } from "./tool-types.js";
