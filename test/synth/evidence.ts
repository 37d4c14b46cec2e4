import { denialsSession, verificationSession } from "./audit-samples.js";
import { branchedSchoolSession, recoveredSchoolSession, stalledSchoolSession } from "./school-session.js";
import type { SessionBuilder } from "./session-builder.js";

/** The bundled evidence samples, by file name; `evidence-samples/` holds their text and expected outputs. */
export const EVIDENCE_SAMPLES: Record<string, () => SessionBuilder> = {
  "stalled-school-session.jsonl": () => stalledSchoolSession(),
  "recovered-school-session.jsonl": () => recoveredSchoolSession(),
  "branched-school-session.jsonl": () => branchedSchoolSession(),
  "denials-session.jsonl": denialsSession,
  "verification-session.jsonl": verificationSession,
};
