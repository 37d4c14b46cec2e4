import type { DenialStatus } from "../../reducers/contract/tool-details.js";

export type PolicyOp = "read" | "list" | "search" | "write";

/** Which rule denied: a marker, the root boundary, or a control file that is never writable. */
export type DenialKind = "marker" | "outside-root" | "control";

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

export type Decision = Allowed | Denied;
