import type { KitRecord } from "../../reducers/contract/events.js";
import { KIT } from "../../reducers/contract/kit-entries.js";
import type { SessionEntry } from "../log/entry-types.js";
import { validator } from "../log/schemas.js";

const SCHEMAS: Record<string, { schema: string; type: KitRecord["type"] }> = {
  [KIT.recoveryMarker]: { schema: "kit-recovery-marker.schema.json", type: "recoveryMarker" },
  [KIT.stallStop]: { schema: "kit-stall-stop.schema.json", type: "stallStop" },
  [KIT.completionReport]: { schema: "kit-completion-report.schema.json", type: "completionReport" },
  [KIT.verificationIncomplete]: { schema: "kit-verification-incomplete.schema.json", type: "verificationIncomplete" },
  [KIT.policyAllowed]: { schema: "kit-policy-allowed.schema.json", type: "policyAllowed" },
  [KIT.toolLoopMarker]: { schema: "kit-tool-loop.schema.json", type: "toolLoopMarker" },
  [KIT.toolLoopStop]: { schema: "kit-tool-loop-stop.schema.json", type: "toolLoopStop" },
  [KIT.rootGuidance]: { schema: "kit-root-guidance.schema.json", type: "rootGuidance" },
  [KIT.requestDigest]: { schema: "kit-request-digest.schema.json", type: "requestDigest" },
  [KIT.requestDigestV1]: { schema: "kit-request-digest.schema.json", type: "requestDigest" },
  [KIT.nestedDenial]: { schema: "kit-nested-denial.schema.json", type: "nestedDenial" },
};
const DATA_RECORDS = new Set<KitRecord["type"]>(["policyAllowed", "rootGuidance", "requestDigest", "nestedDenial"]);

/**
 * The kit record an entry carries, or null. Only a host entry (`custom` / `custom_message`) of a kit type that
 * validates against its schema counts; marker-like text anywhere else is data.
 */
export function kitRecordOf(entry: SessionEntry): KitRecord | null {
  if (entry.type !== "custom" && entry.type !== "custom_message") return null;
  const known = SCHEMAS[entry.customType];
  if (!known || !validator(known.schema)(entry)) return null;
  const payload = entry as unknown as { data?: unknown; details?: unknown };
  if (DATA_RECORDS.has(known.type)) return { type: known.type, data: payload.data } as KitRecord;
  return { type: known.type, details: payload.details } as KitRecord;
}

/** Why an entry with a kit type does not count, for `check` and `inspect`; null when it counts or is not kit-typed. */
export function kitRecordProblem(entry: SessionEntry): string | null {
  if (entry.type !== "custom" && entry.type !== "custom_message") return null;
  const known = SCHEMAS[entry.customType];
  if (!known) return null;
  const validate = validator(known.schema);
  if (validate(entry)) return null;
  const first = validate.errors?.[0];
  return `${first?.instancePath || "record"} ${first?.message ?? "is invalid"}`;
}
