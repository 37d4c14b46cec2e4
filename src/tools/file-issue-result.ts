import type { FileIssueDetails } from "../../reducers/contract/tool-details.js";
import { errorCode } from "../policy/policy-fs.js";
import { displayPath, shortPath } from "./display-path.js";
import type { LoadedFile } from "./file-inspect.js";
import { describeNonFile } from "./file-kinds.js";
import type { ToolFileOperations } from "./file-ops.js";
import { fileIssue } from "./issues.js";
import type { ToolResult } from "./tool-types.js";

type Issue = Extract<LoadedFile, { kind: "issue" }>;

function explain(issue: Issue, shown: string, verb: string): string {
  switch (issue.code) {
    case "PATH_TOO_LONG":
      return `${shown} has a name longer than the file system allows (ENAMETOOLONG), so no file exists there. Check the path with ls or find.`;
    case "SYMLINK_LOOP":
      return `${shown} leads into a loop of symbolic links (ELOOP), so it names no file. Check the path with ls.`;
    case "FILE_NOT_FOUND":
      return `Not found: ${shown}. Check the path with ls or find before trying again.`;
    case "READ_ACCESS_DENIED":
      return `The operating system denied read access to ${shown} (${issue.detail}). Retrying will not change that.`;
    case "UNSUPPORTED_FILE_TYPE":
      if (issue.detail === "a directory")
        return `${shown} is a directory, so ${verb} cannot use it. Use ls to list it.`;
      if (issue.detail === "not a directory")
        return `${shown} is not a directory, so ${verb} cannot list or search it. Use read for a single file.`;
      return `${shown} is ${issue.detail}, not a regular file, so ${verb} cannot use it.`;
    case "UNSUPPORTED_BINARY":
      return (
        `${shown} is ${issue.detail}; ${verb} does not return or change binary content. To diagnose builds or tests, ` +
        "use the registered build and test tools instead of reading executables or build output."
      );
    case "FILE_TOO_LARGE":
      return (
        `${shown} is ${issue.meta?.size ?? "too many"} bytes, over the ${issue.detail}; its content was not loaded. ` +
        (verb === "read" ? "Use grep to find the lines you need, or ask" : "Ask") +
        " the user for the relevant part."
      );
  }
}

/** A file problem as a result: a plain explanation, `retryable: false`, the size and mtime seen. */
export function fileIssueResult(issue: Issue, path: string, root: string, verb = "read"): ToolResult<FileIssueDetails> {
  return fileIssue(issue.code, path, explain(issue, shortPath(displayPath(root, path)), verb), issue.meta);
}

/** undefined when `path` is a directory; otherwise the file problem that stops ls or find. */
export async function requireDirectory(
  path: string,
  ops: ToolFileOperations,
  root: string,
  verb: string,
): Promise<ToolResult<FileIssueDetails> | undefined> {
  try {
    const stat = await ops.stat(path);
    if (stat.isDirectory()) return undefined;
    const detail = stat.isFile() ? "not a directory" : describeNonFile(stat);
    const meta = { size: stat.size, mtimeMs: stat.mtimeMs };
    return fileIssueResult({ kind: "issue", code: "UNSUPPORTED_FILE_TYPE", detail, meta }, path, root, verb);
  } catch (error) {
    const code = errorCode(error);
    const denied = code === "EACCES" || code === "EPERM";
    const issue: Issue = {
      kind: "issue",
      code: denied ? "READ_ACCESS_DENIED" : "FILE_NOT_FOUND",
      detail: code ?? "error",
    };
    return fileIssueResult(issue, path, root, verb);
  }
}
