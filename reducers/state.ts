import type { CheckName, CheckStatus } from "./contract/kit-entries.js";
import type { DenialStatus, FileIssueCode } from "./contract/tool-details.js";

export interface SessionSlice {
  model: { provider: string; modelId: string } | null;
  thinkingLevel: string;
}

export interface RequestSlice {
  /** Entry id of the latest real user message on the branch. */
  currentRequestId: string | null;
  assistantReplies: number;
  toolCalls: number;
}

export interface DenialRecord {
  scope: string;
  status: DenialStatus;
  count: number;
  firstEntryId: string;
  lastEntryId: string;
  guidanceShown: boolean;
}

export interface FileIssueRecord {
  path: string;
  code: FileIssueCode;
  entryId: string;
}

export interface CheckRecord {
  status: CheckStatus;
  revision: number;
  entryId: string;
  by: "model" | "kit";
  testsRun?: number;
}

export interface VerificationSlice {
  /** Bumped by each successful controlled write/edit. */
  revision: number;
  /** Results for the current revision only. */
  checks: Partial<Record<CheckName, CheckRecord>>;
  mutationsThisRequest: number;
  roundsThisRequest: number;
  incomplete: boolean;
}

/** The recent run of promise-only replies, kept by the stall detector's step function. */
export interface PromiseRunState {
  /** Counted text-only replies since the last tool activity, the latest few. */
  recent: { entryId: string; text: string }[];
  promiseEntryIds: string[];
  texts: string[];
  repliesSinceFirst: number;
  stalled: boolean;
}

export interface RecoverySlice {
  /** The latest recovery marker on the branch: the view keeps everything from here on. */
  anchorId: string | null;
  /** Request the anchor was set in. */
  anchorRequestId: string | null;
  recoveriesThisRequest: number;
  run: PromiseRunState;
  /** Promise-only replies since the anchor, and whether any tool was tried since it. */
  promisesSinceAnchor: number;
  toolAttemptsSinceAnchor: number;
  /** STALLED_NO_TOOL_PROGRESS was appended in this request. */
  stopped: boolean;
}

/** Request inputs that are not in the transcript, as last recorded on the branch. */
export interface InputsSlice {
  /** Root guidance text (labelled project data) the view puts first, or null. */
  guidance: string | null;
}

export interface KitState {
  session: SessionSlice;
  request: RequestSlice;
  denials: Record<string, DenialRecord>;
  fileIssues: Record<string, FileIssueRecord>;
  verification: VerificationSlice;
  recovery: RecoverySlice;
  inputs: InputsSlice;
}
