/**
 * Host entries the kit appends to a session. Each is a Pi `custom` (state only) or `custom_message` (visible, in
 * context) entry whose `customType` names it and its version; each has a JSON Schema in `schemas/`. Only entries
 * that validate count: marker-like text anywhere else is data.
 */

export const KIT = {
  recoveryMarker: "context-kit/recovery-marker/v1",
  stallStop: "context-kit/stall-stop/v1",
  completionReport: "agent-context-kit-completion-report-v1",
  verificationIncomplete: "context-kit/verification-incomplete/v1",
  policyAllowed: "context-kit/policy-allowed/v1",
  toolLoopMarker: "context-kit/tool-loop/v1",
  toolLoopStop: "context-kit/tool-loop-stop/v1",
  rootGuidance: "context-kit/root-guidance/v1",
  requestDigest: "context-kit/request-digest/v2",
  /** A call another tool made (`ctx.executeTool`, Pi 0.99+) that the policy denied: the host keeps only its text. */
  nestedDenial: "context-kit/nested-denial/v1",
  /** Older request digests (one hash over the joined message digests); still read and verified. */
  requestDigestV1: "context-kit/request-digest/v1",
} as const;

export const RECOVERED_PREFIX = "CONTEXT_RECOVERED";
export const STALLED_CODE = "STALLED_NO_TOOL_PROGRESS";
export const INCOMPLETE_CODE = "VERIFICATION_INCOMPLETE";
export const TOOL_LOOP_PREFIX = "REPEATED_TOOL_CALLS";
export const TOOL_LOOP_STOP_CODE = "STALLED_REPEATED_TOOL_CALLS";
/** `details.code` of the error result that refuses a call continuing a loop the model was already told about. */
export const TOOL_LOOP_REFUSED = "TOOL_LOOP_REFUSED";

/** `custom_message`, display true, content starts with CONTEXT_RECOVERED. */
export interface RecoveryMarkerDetails {
  requestId: string | null;
  promiseEntryIds: string[];
  reason: string;
}

/** `custom_message`, display true, content starts with STALLED_NO_TOOL_PROGRESS. */
export interface StallStopDetails {
  requestId: string | null;
  promiseEntryIds: string[];
  anchorId: string | null;
}

export type CheckName = "app_build" | "app_test";
export type CheckStatus = "passed" | "failed" | "no_tests" | "error";

export interface CheckOutcome {
  name: CheckName;
  status: CheckStatus;
  /** Who ran it: the model through a tool call, or the kit before the run settled. */
  by: "model" | "kit";
  summary: string;
  testsRun?: number;
}

/** `custom_message` of type agent-context-kit-completion-report-v1. */
export interface CompletionReportDetails {
  requestId: string | null;
  revision: number;
  round: number;
  checks: CheckOutcome[];
}

/** `custom_message`, content starts with VERIFICATION_INCOMPLETE. */
export interface VerificationIncompleteDetails {
  requestId: string | null;
  revision: number;
  missing: CheckName[];
  rounds: number;
}

/**
 * `custom` entry: the same decision that denied now passes, so the denial's reminder is dropped. `rule` names the
 * denial; an entry without it (older sessions) drops every denial in `scope`.
 */
/** The denial of a nested call, with the details its result had (the session's nested record keeps only text). */
export interface NestedDenialData {
  parentToolCallId: string;
  toolCallId: string;
  toolName: string;
  details: Record<string, unknown>;
}

export interface PolicyAllowedData {
  scope: string;
  rule?: string;
}

export type ToolLoopKind = "repeat" | "ping-pong" | "repeated-failure" | "post-compaction";

/** A loop as `detect --json` reports it (a contract): the distinct calls and the entries that make it. */
export interface ToolLoopReport {
  kind: ToolLoopKind;
  calls: { tool: string; args: unknown }[];
  entryIds: string[];
}

/** `custom_message`, display true, content starts with REPEATED_TOOL_CALLS. */
export interface ToolLoopMarkerDetails {
  requestId: string | null;
  loop: ToolLoopReport;
  /** The unchanged result, shortened. */
  result: string;
}

/** `custom_message`, display true, content starts with STALLED_REPEATED_TOOL_CALLS. */
export interface ToolLoopStopDetails {
  requestId: string | null;
  loop: ToolLoopReport;
  markerId: string | null;
}

/** `custom` entry: the root guidance the view puts first from here on (null: none), recorded when it changes. */
export interface RootGuidanceData {
  text: string | null;
}

/**
 * `custom` entry appended by every live request: the digest of the messages sent. The request's leaf is the entry
 * `pending` context messages further down the chain that continues from this entry (messages the host had not
 * persisted yet when the request was made land right after it).
 */
export interface RequestDigestData {
  /**
   * `sha256:` + hex: v2, the last link of a SHA-256 chain over the outgoing messages' digests; v1, the SHA-256 of
   * those digests joined (each the SHA-256 of a message's stable JSON, custom messages without timestamp).
   */
  digest: string;
  kitVersion: string;
  pending: number;
  /** How many messages were sent. */
  messages: number;
  /**
   * Hosts that send system messages (Pi 0.87+): the digest of the prompt and tool declarations the request's system
   * messages replay to, and how many system messages it carried. Absent where the host sends none.
   */
  system?: { digest: string; messages: number };
}
