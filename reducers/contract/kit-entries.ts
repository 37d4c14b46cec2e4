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
  rootGuidance: "context-kit/root-guidance/v1",
  requestDigest: "context-kit/request-digest/v1",
} as const;

export type KitCustomType = (typeof KIT)[keyof typeof KIT];

export const RECOVERED_PREFIX = "CONTEXT_RECOVERED";
export const STALLED_CODE = "STALLED_NO_TOOL_PROGRESS";
export const INCOMPLETE_CODE = "VERIFICATION_INCOMPLETE";

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

/** `custom` entry: the policy allows this scope again, so its denial reminder is dropped. */
export interface PolicyAllowedData {
  scope: string;
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
  /** `sha256:` + hex of the SHA-256 of the stable JSON of the outgoing messages (custom messages without timestamp). */
  digest: string;
  kitVersion: string;
  pending: number;
  /** How many messages were sent. */
  messages: number;
}
