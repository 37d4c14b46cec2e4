import {
  type FileIssueCode,
  type FileIssueDetails,
  isDenial,
  isFileIssue,
} from "../../reducers/contract/tool-details.js";
import { type ToolResult, textResult } from "./tool-types.js";

/** Invalid input or a refused mutation that is neither a policy denial nor a file problem. */
export const TOOL_INPUT_ERROR = "TOOL_INPUT_ERROR";

export type InputIssueReason =
  | "INVALID_ARGUMENT"
  | "INVALID_PATTERN"
  | "OFFSET_OUT_OF_RANGE"
  | "PARENT_NOT_FOUND"
  | "SYMLINK_MUTATION"
  | "WRITE_FAILED"
  | "EDIT_EMPTY"
  | "EDIT_NOT_FOUND"
  | "EDIT_NOT_UNIQUE"
  | "EDIT_OVERLAP"
  | "EDIT_NO_CHANGE";

export interface ToolInputIssueDetails {
  code: typeof TOOL_INPUT_ERROR;
  reason: InputIssueReason;
  retryable: false;
  path?: string;
  editIndex?: number;
}

export function isToolInputIssue(details: unknown): details is ToolInputIssueDetails {
  return typeof details === "object" && details !== null && (details as { code?: unknown }).code === TOOL_INPUT_ERROR;
}

export function inputIssue(
  reason: InputIssueReason,
  message: string,
  extra: { path?: string; editIndex?: number } = {},
): ToolResult<ToolInputIssueDetails> {
  return textResult(message, { code: TOOL_INPUT_ERROR, reason, retryable: false, ...extra });
}

export function fileIssue(
  code: FileIssueCode,
  path: string,
  message: string,
  stat?: { size: number; mtimeMs: number },
): ToolResult<FileIssueDetails> {
  const details: FileIssueDetails = { code, retryable: false, path };
  if (stat) {
    details.size = stat.size;
    details.mtimeMs = stat.mtimeMs;
  }
  return textResult(message, details);
}

/** For the session's `tool_result` hook: whether Pi's `isError` flag belongs on a result with these details. */
export function resultNeedsErrorFlag(details: unknown): boolean {
  return isDenial(details) || isFileIssue(details) || isToolInputIssue(details);
}
