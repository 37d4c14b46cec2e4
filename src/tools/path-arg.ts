import { inputIssue, type ToolInputIssueDetails } from "./issues.js";
import type { ToolResult } from "./tool-types.js";

const MAX_PATH_BYTES = 4096;
const MAX_SEGMENTS = 256;

/** A path argument no file system would accept (NUL bytes, absurd length) is refused before the policy sees it. */
export function pathArgProblem(
  tool: string,
  path: unknown,
  optional = false,
): ToolResult<ToolInputIssueDetails> | undefined {
  if (path === undefined && optional) return undefined;
  if (typeof path !== "string") return inputIssue("INVALID_ARGUMENT", `${tool} needs a string \`path\`.`);
  if (path.includes("\0")) return inputIssue("INVALID_ARGUMENT", `${tool}: the path contains a NUL byte.`);
  if (Buffer.byteLength(path) > MAX_PATH_BYTES || path.split(/[\\/]+/).length > MAX_SEGMENTS) {
    return inputIssue("INVALID_ARGUMENT", `${tool}: the path is longer than any path the host accepts.`);
  }
  return undefined;
}
