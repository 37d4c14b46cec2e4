import type { DenialStatus } from "../../reducers/contract/tool-details.js";

export type PolicyOp = "read" | "list" | "search" | "write";

/** Which rule denied: a marker, the root boundary, or a control location that is never writable. */
export type DenialKind = "marker" | "outside-root" | "control";

/** A path no file can be reached through: a name the file system rejects as too long, or a symlink loop. */
export type UnresolvableCode = "PATH_TOO_LONG" | "SYMLINK_LOOP";

export interface Allowed {
  allowed: true;
  op: PolicyOp;
  input: string;
  /** Canonical real path: the one tools open. */
  path: string;
  /** The normalised path as spelled (`@`, `~`, `..` resolved, symlinks not followed). */
  lexicalPath: string;
  /** A symlink sits somewhere between the root and the spelled path (or is the path itself). */
  viaSymlink: boolean;
}

export interface Denied {
  allowed: false;
  op: PolicyOp;
  input: string;
  /** The normalised path as spelled: what the same decision is taken on again later. */
  lexicalPath: string;
  status: DenialStatus;
  kind: DenialKind;
  /** Canonical directory the denial applies to: the marker's directory, the root, or the control location. */
  scope: string;
  rule: string;
  /** Canonical path that was asked for. */
  path: string;
  /** The marker file whose guidance belongs to this scope (kind "marker" only). */
  marker?: string;
}

/** Not a denial: a file error found while looking for markers. Nothing can be opened through such a path. */
export interface Unresolvable {
  allowed: false;
  kind: "unresolvable";
  op: PolicyOp;
  input: string;
  code: UnresolvableCode;
  path: string;
}

export type Refused = Denied | Unresolvable;

export type Decision = Allowed | Refused;
