import type { CheckName, CheckStatus, ToolLoopKind, ToolLoopReport } from "./contract/kit-entries.js";
import type { DenialOp, DenialStatus, FileIssueCode } from "./contract/tool-details.js";

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
  /** The rule that fired; the record's key. */
  rule: string;
  /** The latest denied operation and spelled path: the decision taken again to see whether it now passes. */
  op?: DenialOp;
  target: string;
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
  recent: { entryId: string; text: string; user?: string | null }[];
  /** The user's message since the latest reply, which the next reply answers; null when there is none. */
  user: string | null;
  promiseEntryIds: string[];
  texts: string[];
  repliesSinceFirst: number;
  stalled: boolean;
  learnedScore: number | null;
  /** Each reader's own run (the hand-written rules' and the trained models'); the fields above are the one reported. */
  readers: { rules: Omit<PromiseRunState, "readers">; models: Omit<PromiseRunState, "readers"> };
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

/** A tool call with its result (the record is the result the detector compares), as the loop detector keeps it. */
export interface ToolCallRecord extends ToolResultRef {
  /** Canonical call: the tool name and its arguments, key order and formatting ignored. */
  key: string;
  callEntryId: string;
  resultEntryId: string;
  /** For a successful write or edit: whether it left a file in a state not already seen in the run ("new"). */
  change: "new" | "seen" | null;
}

/**
 * The latest calls, newest first: a persistent list whose cells the states after them share, so a call adds one cell
 * instead of copying the window. The detector reads the latest `TOOL_LOOP_THRESHOLDS.window` cells of it.
 */
export interface CallList {
  call: ToolCallRecord;
  /** The calls before it; null at the start of a run or past the cells kept. */
  earlier: CallList | null;
  /** Cells in the list from this one back. */
  length: number;
}

/** One loop episode on a branch, from the call where it formed to where it ended or the branch ends. */
export interface ToolLoopEpisode extends ToolLoopReport {
  /** Calls in the episode. */
  callCount: number;
  /** Calls that repeated one already made in the episode: what the loop cost. */
  wastedCalls: number;
}

/** The episode the branch is in: its report and the keys of its distinct calls. */
export interface OpenToolLoopEpisode {
  episode: ToolLoopEpisode;
  keys: readonly string[];
}

/** A tool result as folded; results are compared through the detector, which ignores their volatile parts. */
export interface ToolResultRef {
  tool: string;
  args: unknown;
  isError: boolean;
  content: unknown;
  details: unknown;
}

export interface PendingToolCall {
  /** The tool call id its result names. */
  id: string;
  key: string;
  tool: string;
  args: unknown;
  entryId: string;
}

export interface ToolLoopSlice {
  /** Calls of the latest assistant message still waiting for their results, in order. */
  pending: readonly PendingToolCall[];
  /** The latest calls with their results, newest first; null before the first. */
  recent: CallList | null;
  /** Calls after the latest compaction or branch summary while a call before it is in the window; null otherwise. */
  afterBoundary: number | null;
  /** The loop the branch ends in: its kind and how many of the latest calls make it. */
  loop: { kind: ToolLoopKind; length: number } | null;
  /** The latest loop marker on the branch and the request it was appended in. */
  markerId: string | null;
  markerRequestId: string | null;
  markersThisRequest: number;
  /** STALLED_REPEATED_TOOL_CALLS was appended in this request, with the loop it named. */
  stopped: ToolLoopReport | null;
  /** A user message came after the latest call: the next call starts new runs (the loop before it still shows). */
  runsEnded: boolean;
  /** Loop episodes that ended earlier on the branch, oldest first. */
  episodes: readonly ToolLoopEpisode[];
  /** The episode the latest calls are in; null when they are in none. */
  episode: OpenToolLoopEpisode | null;
}

/** A call a tool made to another tool, as the audit shows it (its result text is not recorded by the host). */
export interface NestedCallSeen {
  /** The calling tool's result entry. */
  entryId: string;
  parentCallId: string;
  id: string;
  tool: string;
  args?: unknown;
  status: "ok" | "error" | "unfinished";
  error?: string;
}

export interface NestedCallsSlice {
  calls: number;
  failed: number;
  unfinished: number;
  /** Tool results whose nested-call record the host cut short (calls dropped or arguments left out). */
  incompleteRecordIds: string[];
  recent: NestedCallSeen[];
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
  toolLoop: ToolLoopSlice;
  inputs: InputsSlice;
  nested: NestedCallsSlice;
}
