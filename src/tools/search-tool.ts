import { inputIssue } from "./issues.js";
import { type GuardedPath, guardedPath } from "./path-arg.js";
import { MAX_BYTES } from "./text-window.js";
import type { ToolDeps } from "./tool-deps.js";
import { throwIfAborted } from "./tool-types.js";

/** A search tool's description: what it does, then how its output is capped and that excluded folders are skipped. */
export function searchDescription(does: string, cap: string): string {
  return (
    `${does} Output is truncated to ${cap} or ${MAX_BYTES / 1024}KB (whichever is hit first). Directories excluded ` +
    "by a .context-exclude marker are skipped without being opened."
  );
}

/**
 * The start of every search: an aborted call throws; a pattern that is not a string, or a folder the policy does
 * not let the tool search, ends the call with its result.
 */
export function searchStart(
  deps: Pick<ToolDeps, "policy" | "denials">,
  tool: "find" | "grep",
  params: { pattern?: unknown; path?: unknown } | undefined,
  signal: AbortSignal | undefined,
): GuardedPath {
  throwIfAborted(signal);
  if (typeof params?.pattern !== "string") {
    return { ok: false, result: inputIssue("INVALID_ARGUMENT", `${tool} needs a string \`pattern\`.`) };
  }
  return guardedPath(deps, tool, params.path, "search", true);
}
