import type {
  CompletionReportDetails,
  PolicyAllowedData,
  RecoveryMarkerDetails,
  RequestDigestData,
  RootGuidanceData,
  StallStopDetails,
  VerificationIncompleteDetails,
} from "./kit-entries.js";

/** A kit host entry that validated against its schema: the only kind of entry that can steer the kit. */
export type KitRecord =
  | { type: "recoveryMarker"; details: RecoveryMarkerDetails }
  | { type: "stallStop"; details: StallStopDetails }
  | { type: "completionReport"; details: CompletionReportDetails }
  | { type: "verificationIncomplete"; details: VerificationIncompleteDetails }
  | { type: "policyAllowed"; data: PolicyAllowedData }
  | { type: "rootGuidance"; data: RootGuidanceData }
  | { type: "requestDigest"; data: RequestDigestData };

/**
 * What reducers fold: one event per session entry, normalised from the entry (ids and times come with it).
 * Text never becomes a `kit` event; only validated host entries do.
 */
export type KitEvent =
  | { kind: "user"; entryId: string }
  | {
      kind: "assistant";
      entryId: string;
      text: string;
      toolCallIds: string[];
      stopReason: string;
      provider: string;
      model: string;
    }
  | { kind: "toolResult"; entryId: string; toolCallId: string; toolName: string; isError: boolean; details: unknown }
  | { kind: "kit"; entryId: string; record: KitRecord }
  | { kind: "hostMessage"; entryId: string }
  | { kind: "modelChange"; entryId: string; provider: string; modelId: string }
  | { kind: "thinkingChange"; entryId: string; thinkingLevel: string }
  | { kind: "other"; entryId: string };
