/**
 * The `details` the kit's guarded tools put on their results. Reducers fold denials and file problems from these,
 * so no extra session entry is needed. Text inside `content` is never read for control purposes.
 */

export const ACCESS_DENIED = "CONTEXT_ACCESS_DENIED";

export type DenialStatus = "excluded" | "outOfScope";

export type DenialOp = "read" | "list" | "search" | "write";

export interface DenialDetails {
  code: typeof ACCESS_DENIED;
  status: DenialStatus;
  blocked: true;
  retryable: false;
  /** Canonical directory the decision applies to: the marker's directory, or the policy root for outOfScope. */
  scope: string;
  /** Which rule fired, e.g. `marker:/abs/dir/.context-exclude` or `outside-root:/abs/root`. */
  rule: string;
  /** The canonical path that was asked for. */
  path: string;
  /** The operation that was denied and the path as spelled (normalised), so the same decision can be taken again. */
  op?: DenialOp;
  target?: string;
  /** Set on the second and later denials in the same scope, with the running count. */
  previouslyBlocked?: boolean;
  scopeCount?: number;
  /** Marker guidance was included in this result (only on the first denial in a scope). */
  guidanceShown?: boolean;
}

export const FILE_ISSUE_CODES = [
  "UNSUPPORTED_BINARY",
  "FILE_TOO_LARGE",
  "FILE_NOT_FOUND",
  "UNSUPPORTED_FILE_TYPE",
  "READ_ACCESS_DENIED",
  "PATH_TOO_LONG",
  "SYMLINK_LOOP",
] as const;
export type FileIssueCode = (typeof FILE_ISSUE_CODES)[number];

export interface FileIssueDetails {
  code: FileIssueCode;
  retryable: false;
  /** Canonical path of the file. */
  path: string;
  /** Size and modification time seen, so a later change of the file can be recognised. */
  size?: number;
  mtimeMs?: number;
}

/** Success results of guarded tools name the canonical path they touched, so reducers can clear file issues. */
export interface FileTouchDetails {
  path: string;
  /** Set by write/edit: the file changed. */
  mutated?: boolean;
}

/** Set by a guarded search that skipped excluded subtrees: a success, never a denial. */
export interface PrunedDetails {
  pruned: string[];
}

/** What a denial is counted under: the rule that fired, which names its canonical target. */
export function denialKey(details: Pick<DenialDetails, "rule">): string {
  return details.rule;
}

/** A guarded tool's denial, read from the structured result (never from text); null for anything else. */
export function denialOf(details: unknown): DenialDetails | null {
  if (typeof details !== "object" || details === null) return null;
  const d = details as Partial<DenialDetails>;
  if (d.code !== ACCESS_DENIED || typeof d.scope !== "string" || typeof d.rule !== "string") return null;
  if (d.status !== "excluded" && d.status !== "outOfScope") return null;
  return d as DenialDetails;
}

export function isDenial(details: unknown): details is DenialDetails {
  return denialOf(details) !== null;
}

/** A classified read problem (`FILE_NOT_FOUND`, …) with the file's canonical path; null for anything else. */
export function fileIssueOf(details: unknown): FileIssueDetails | null {
  if (typeof details !== "object" || details === null) return null;
  const d = details as Partial<FileIssueDetails>;
  if (typeof d.path !== "string" || !(FILE_ISSUE_CODES as readonly unknown[]).includes(d.code)) return null;
  return d as FileIssueDetails;
}

export function isFileIssue(details: unknown): details is FileIssueDetails {
  return fileIssueOf(details) !== null;
}
