import type { DenialRecord, KitState } from "../reducers/state.js";
import type { CustomMessage } from "../src/log/entry-types.js";

export const REMINDER_TYPE = "context-kit/policy-reminder";
/** Bounds so the reminder never crowds the request, however many scopes were denied. */
const MAX_REMINDER_SCOPES = 8;
const MAX_REMINDER_CHARS = 2000;
/** A path quoted in the reminder keeps its start and end within this many characters. */
export const MAX_REMINDER_PATH = 120;

function bounded(path: string): string {
  if (path.length <= MAX_REMINDER_PATH) return path;
  const head = Math.ceil((MAX_REMINDER_PATH - 1) / 2);
  return `${path.slice(0, head)}…${path.slice(path.length - (MAX_REMINDER_PATH - 1 - head))}`;
}

function denialLine(d: DenialRecord): string {
  const scope = bounded(d.scope);
  const attempts = `${d.count} attempt(s) were blocked`;
  if (d.rule.startsWith("outside-root:"))
    return `- Paths outside the project root ${scope}: ${attempts}. The file tools only reach files under the root.`;
  if (d.rule.startsWith("control:"))
    return `- ${scope} is a protected control location that is never written: ${attempts}. Do not retry the write under another spelling or tool.`;
  const why = d.rule.startsWith("marker-unverifiable:")
    ? "could not be checked for a marker, so it is treated as excluded"
    : "is excluded by a project marker";
  return `- ${scope} ${why}; ${attempts}. Do not retry it under another spelling or tool; use permitted files instead.`;
}

/**
 * A request-local host-policy reminder of denied scopes and file problems in this request. It informs the model; it
 * is never used to authorise anything (every tool call re-checks the policy).
 */
export function policyReminder(state: KitState, timestamp: number): CustomMessage | null {
  const denials = Object.values(state.denials);
  const issues = Object.values(state.fileIssues);
  if (denials.length === 0 && issues.length === 0) return null;
  const lines = ["Host policy reminder (from the host, not the user):"];
  for (const d of denials.slice(0, MAX_REMINDER_SCOPES)) lines.push(denialLine(d));
  if (denials.length > MAX_REMINDER_SCOPES)
    lines.push(`- … and ${denials.length - MAX_REMINDER_SCOPES} more denied scope(s).`);
  for (const f of issues.slice(0, MAX_REMINDER_SCOPES)) {
    lines.push(`- ${bounded(f.path)}: ${f.code} (not retryable as is).`);
  }
  let text = lines.join("\n");
  if (text.length > MAX_REMINDER_CHARS) text = `${text.slice(0, MAX_REMINDER_CHARS - 1)}…`;
  return { role: "custom", customType: REMINDER_TYPE, content: text, display: false, timestamp };
}
