import type { Stats } from "node:fs";
import { dirname } from "node:path";
import type { Allowed } from "../policy/decision.js";
import { errorCode } from "../policy/policy-fs.js";
import { displayPath } from "./display-path.js";
import { describeNonFile } from "./file-kinds.js";
import { fileIssue, inputIssue } from "./issues.js";
import type { ToolDeps } from "./tool-deps.js";
import type { ToolResult } from "./tool-types.js";

/**
 * Checks shared by write and edit once the policy allowed the path: no symlink anywhere on the way, an existing parent
 * directory, and an existing target (if any) that is a regular file. Returns a result to stop with, or undefined.
 */
export async function mutationProblem(
  decision: Allowed,
  deps: ToolDeps,
  verb: string,
): Promise<ToolResult | undefined> {
  const { policy, ops } = deps;
  const shown = displayPath(policy.root, decision.path);
  const symlink = () =>
    inputIssue(
      "SYMLINK_MUTATION",
      `${verb} refused: ${decision.input} reaches ${shown} through a symbolic link, and the host never changes files ` +
        "through symlinks. Use the file's real path if it is inside the project.",
      { path: decision.path },
    );
  if (decision.viaSymlink) return symlink();
  const parent = await ops.stat(dirname(decision.path)).catch(() => undefined);
  if (!parent?.isDirectory()) {
    return inputIssue(
      "PARENT_NOT_FOUND",
      `${verb} refused: the directory ${displayPath(policy.root, dirname(decision.path))} does not exist. The host does ` +
        "not create directories; write into an existing directory.",
      { path: decision.path },
    );
  }
  let existing: Stats | undefined;
  try {
    existing = await ops.lstat(decision.path);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
  if (existing?.isSymbolicLink()) return symlink();
  if (existing && !existing.isFile()) {
    return fileIssue(
      "UNSUPPORTED_FILE_TYPE",
      decision.path,
      `${shown} is ${describeNonFile(existing)}, not a regular file, so ${verb} cannot change it.`,
      { size: existing.size, mtimeMs: existing.mtimeMs },
    );
  }
  return undefined;
}

export function writeFailure(error: unknown, path: string, root: string, verb: string): ToolResult {
  return inputIssue(
    "WRITE_FAILED",
    `${verb} failed: the operating system refused to write ${displayPath(root, path)} (${errorCode(error) ?? String(error)}).`,
    { path },
  );
}
