import type { PolicyOp } from "../policy/decision.js";
import { denialResult } from "./denial-result.js";
import { inputIssue, type ToolInputIssueDetails } from "./issues.js";
import type { ToolDeps } from "./tool-deps.js";
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

/** The checked path argument, or the result that refuses it: a bad argument, or the policy's denial. */
export type GuardedPath = { ok: true; path: string } | { ok: false; result: ToolResult<unknown> };

/** Argument check then policy decision, the start every reading tool shares (an absent path means the root). */
export function guardedPath(
  deps: Pick<ToolDeps, "policy" | "denials">,
  tool: string,
  path: unknown,
  op: PolicyOp,
  optional = false,
): GuardedPath {
  const bad = pathArgProblem(tool, path, optional);
  if (bad) return { ok: false, result: bad };
  const decision = deps.policy.decide((path as string | undefined) ?? ".", op);
  if (!decision.allowed) return { ok: false, result: denialResult(decision, deps.policy, deps.denials) };
  return { ok: true, path: decision.path };
}
