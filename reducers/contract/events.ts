import type {
  CompletionReportDetails,
  NestedDenialData,
  PolicyAllowedData,
  RecoveryMarkerDetails,
  RequestDigestData,
  RootGuidanceData,
  StallStopDetails,
  ToolLoopMarkerDetails,
  ToolLoopStopDetails,
  VerificationIncompleteDetails,
} from "./kit-entries.js";

/** A kit host entry that validated against its schema: the only kind of entry that can steer the kit. */
export type KitRecord =
  | { type: "recoveryMarker"; details: RecoveryMarkerDetails }
  | { type: "stallStop"; details: StallStopDetails }
  | { type: "completionReport"; details: CompletionReportDetails }
  | { type: "verificationIncomplete"; details: VerificationIncompleteDetails }
  | { type: "policyAllowed"; data: PolicyAllowedData }
  | { type: "toolLoopMarker"; details: ToolLoopMarkerDetails }
  | { type: "toolLoopStop"; details: ToolLoopStopDetails }
  | { type: "rootGuidance"; data: RootGuidanceData }
  | { type: "requestDigest"; data: RequestDigestData }
  | { type: "nestedDenial"; data: NestedDenialData };

/** One tool call of an assistant message, as the model wrote it. */
export interface ToolCallRef {
  id: string;
  name: string;
  args: unknown;
}

/** A call a tool made to another tool (`nestedCalls` on its result, Pi 0.99+): its result text is not recorded. */
export interface NestedCallRef {
  id: string;
  name: string;
  /** Absent when the host left the arguments out of its record (over its size limits). */
  args?: unknown;
  status: "ok" | "error" | "unfinished";
  /** The failure's text, truncated by the host. */
  error?: string;
}

/** The nested calls recorded on one tool result; `complete: false` when the host dropped or cut some of them. */
export interface NestedCalls {
  calls: NestedCallRef[];
  complete: boolean;
}

/**
 * What reducers fold: one event per session entry, normalised from the entry (ids and times come with it).
 * Text never becomes a `kit` event; only validated host entries do.
 */
export type KitEvent =
  | { kind: "user"; entryId: string; text?: string }
  | {
      kind: "assistant";
      entryId: string;
      text: string;
      toolCalls: ToolCallRef[];
      stopReason: string;
      provider: string;
      model: string;
    }
  | {
      kind: "toolResult";
      entryId: string;
      toolCallId: string;
      toolName: string;
      isError: boolean;
      details: unknown;
      content: unknown;
      nested?: NestedCalls;
      /** The host's "Operation aborted" result for a call cancelled before it ran (Esc, Pi 1.6): no failure. */
      cancelled?: true;
    }
  /** One nested call, folded right after the tool result that records it (`parentCallId` names the caller). */
  | { kind: "nestedCall"; entryId: string; parentCallId: string; call: NestedCallRef }
  | { kind: "kit"; entryId: string; record: KitRecord }
  | { kind: "hostMessage"; entryId: string }
  | { kind: "modelChange"; entryId: string; provider: string; modelId: string }
  | { kind: "thinkingChange"; entryId: string; thinkingLevel: string }
  /** `boundary`: a compaction or branch summary, where the model's context was cut. */
  | { kind: "other"; entryId: string; boundary?: true };
