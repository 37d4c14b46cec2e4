import type { AgentMessage, CustomMessage, UserMessage } from "../src/log/entry-types.js";
import { keepsBeforeMarker } from "./context-in-force.js";
import { toolPairingViolations } from "./tool-pairing.js";

export type ViolationCode =
  | "USER_MESSAGE_MISSING"
  | "NOT_USER_BEFORE_MARKER"
  | "TOOL_PAIRING"
  | "VIEW_DIFFERS_FROM_HOST"
  | "FORGED_ANCHOR";

export interface Violation {
  code: ViolationCode;
  message: string;
}

export interface ViewUnderCheck {
  /** The host's own context for the leaf. */
  host: readonly AgentMessage[];
  view: readonly AgentMessage[];
  /** Index of the marker in `view` (of the first message after it when compacted away), or -1 without a recovery view. */
  anchorIndex: number;
  /** Every user message on the branch, oldest first. */
  branchUsers: readonly UserMessage[];
  /** The anchor entry validates as a kit marker (false when the state points at anything else). */
  anchorAuthentic: boolean;
  /** Request-local messages the projection added: root guidance first, the policy reminder last. */
  added?: { guidance: CustomMessage | null; reminder: CustomMessage | null };
}

/** The view without the request-local messages the projection put around it. */
function withoutAdded(view: readonly AgentMessage[], added: ViewUnderCheck["added"]): readonly AgentMessage[] {
  const start = added?.guidance && view[0] === added.guidance ? 1 : 0;
  const end = added?.reminder && view.at(-1) === added.reminder ? view.length - 1 : view.length;
  return view.slice(start, end);
}

/** The invariants every projected view keeps; returns what is broken. */
export function checkView(input: ViewUnderCheck): Violation[] {
  const out: Violation[] = [];
  const { host, view, anchorIndex } = input;
  if (anchorIndex < 0) {
    const sent = withoutAdded(view, input.added);
    if (sent.length !== host.length || sent.some((m, i) => m !== host[i])) {
      out.push({
        code: "VIEW_DIFFERS_FROM_HOST",
        message: "a branch with no recovery anchor must be sent as the host builds it (guidance and reminder aside)",
      });
    }
  } else {
    if (!input.anchorAuthentic)
      out.push({ code: "FORGED_ANCHOR", message: "the anchor is not a validated host marker" });
    const present = new Set(view.filter((m) => m.role === "user"));
    const missing = input.branchUsers.filter((m) => !present.has(m));
    if (missing.length > 0) {
      out.push({
        code: "USER_MESSAGE_MISSING",
        message: `${missing.length} user message(s) of the branch are not in the view`,
      });
    }
    view.slice(0, anchorIndex).forEach((m, i) => {
      if (m.role === "user" || (m.role === "custom" && keepsBeforeMarker(m.customType))) return;
      out.push({ code: "NOT_USER_BEFORE_MARKER", message: `view[${i}] is a ${m.role} message from before the marker` });
    });
  }
  const inHost = new Set(toolPairingViolations(host).map((v) => v.toolCallId));
  for (const v of toolPairingViolations(view)) {
    if (!inHost.has(v.toolCallId)) {
      out.push({ code: "TOOL_PAIRING", message: `view[${v.index}]: ${v.code} for tool call ${v.toolCallId}` });
    }
  }
  return out;
}
