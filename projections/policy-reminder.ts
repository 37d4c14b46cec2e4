import type { KitState } from "../reducers/state.js";
import type { CustomMessage } from "../src/log/entry-types.js";

export const REMINDER_TYPE = "context-kit/policy-reminder";
/** Bounds so the reminder never crowds the request, however many scopes were denied. */
export const MAX_REMINDER_SCOPES = 8;
export const MAX_REMINDER_CHARS = 2000;

/**
 * A request-local host-policy reminder of denied scopes and file problems in this request. It informs the model; it
 * is never used to authorise anything (every tool call re-checks the policy).
 */
export function policyReminder(state: KitState, timestamp: number): CustomMessage | null {
  const denials = Object.values(state.denials);
  const issues = Object.values(state.fileIssues);
  if (denials.length === 0 && issues.length === 0) return null;
  const lines = ["Host policy reminder (from the host, not the user):"];
  for (const d of denials.slice(0, MAX_REMINDER_SCOPES)) {
    const why = d.status === "outOfScope" ? "is outside the project root" : "is excluded by a project marker";
    lines.push(
      `- ${d.scope} ${why}; ${d.count} attempt(s) were blocked. Do not retry it under another spelling or tool; use permitted files instead.`,
    );
  }
  if (denials.length > MAX_REMINDER_SCOPES)
    lines.push(`- … and ${denials.length - MAX_REMINDER_SCOPES} more denied scope(s).`);
  for (const f of issues.slice(0, MAX_REMINDER_SCOPES)) {
    lines.push(`- ${f.path}: ${f.code} (not retryable as is).`);
  }
  let text = lines.join("\n");
  if (text.length > MAX_REMINDER_CHARS) text = `${text.slice(0, MAX_REMINDER_CHARS - 1)}…`;
  return { role: "custom", customType: REMINDER_TYPE, content: text, display: false, timestamp };
}
