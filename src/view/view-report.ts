import type { Omitted } from "../../projections/recovery-view.js";
import { isHostEcho } from "../../reducers/host-echo.js";
import { leafSummary, type NestedCallsSummary } from "../fold/replay-report.js";
import { foldTree } from "../fold/session-fold.js";
import { textOf } from "../fold/to-event.js";
import type { Diagnostic } from "../log/diagnostics.js";
import type { AgentMessage } from "../log/entry-types.js";
import { kitVersion } from "../package-root.js";
import { plural } from "../text.js";
import type { SessionTree } from "../tree/session-tree.js";
import { type BranchCut, describeCut } from "./branch-damage.js";
import { viewOfLeaf } from "./leaf-view.js";
import { type RequestStatus, recordedRequests, requestName, verifyRequest } from "./recorded-requests.js";
import { systemState } from "./system-digest.js";

export interface ViewReport {
  file: string;
  leafId: string | null;
  anchorId: string | null;
  messages: AgentMessage[];
  omitted: Omitted;
  tokensEstimate: { full: number; view: number };
  /** The recorded live requests made at this leaf (usually one; none for a leaf no request was made at). */
  requests: { number: number; digestEntryId: string; status: RequestStatus; name: string }[];
  /** The 1.x system messages the host sends with the view (outside the `context` hook): what they replay to. */
  system?: { messages: number; sections: string[]; tools: string[] };
  /** Calls tools made to other tools on this branch (metadata of the session record; never sent to the model). */
  nestedCalls?: NestedCallsSummary;
  /** Records of this branch that failed their schema (only when there are any): their place is kept, their content left out. */
  invalidRecords?: Diagnostic[];
  /** Set only for a branch cut from its root by a line the host drops or a missing parent. */
  cut?: BranchCut;
  /** The error diagnostics of this branch (only when there are any): its entries, and the line that cuts it. */
  branchErrors?: Diagnostic[];
}

/** A reply that ended in a provider error (a 429, an overload) shows the error, not an empty row. */
function providerError(message: AgentMessage): string | null {
  if (message.role !== "assistant") return null;
  if (message.stopReason !== "error" && !message.errorMessage) return null;
  return `[${message.stopReason ?? "error"}: ${message.errorMessage ?? "no message"}]`;
}

function preview(message: AgentMessage): string {
  const error = providerError(message);
  const body = "summary" in message ? message.summary : textOf(message);
  const text = error ? `${error} ${body}` : body;
  const flat = text.replace(/\s+/g, " ").trim();
  const calls =
    message.role === "assistant"
      ? message.content.filter((b) => b.type === "toolCall").map((b) => (b.type === "toolCall" ? b.name : ""))
      : [];
  const label =
    message.role === "custom"
      ? `custom:${message.customType}`
      : message.role === "assistant" && isHostEcho(String(message.provider), String(message.model))
        ? "host echo"
        : message.role;
  return `${label.padEnd(14)} ${flat.slice(0, 100)}${flat.length > 100 ? "…" : ""}${calls.length ? ` [calls ${calls.join(", ")}]` : ""}`;
}

/**
 * The view's size beside the host's own context for the leaf. The view can be the larger one (the kit's guidance
 * and reminders); a saving is shown only when there is one.
 */
function tokensText(t: ViewReport["tokensEstimate"]): string {
  const both = `tokens: ~${t.view} in this view, ~${t.full} in the host's own context`;
  if (t.view < t.full) return `${both} (saves ~${t.full - t.view})`;
  if (t.view > t.full) return `${both} (the kit adds ~${t.view - t.full}: its guidance and reminders)`;
  return both;
}

function headText(r: ViewReport): string {
  if (r.anchorId) return `, recovery view from marker ${r.anchorId}`;
  if (r.cut) return `, ${describeCut(r.cut)}`;
  return ", as the host builds it";
}

export function formatView(r: ViewReport): string {
  const o = r.omitted;
  return [
    `${r.file} leaf ${r.leafId ?? "-"}: ${plural(r.messages.length, "message")}${headText(r)}`,
    ...(r.requests.length === 0
      ? ["  no recorded request was made at this leaf"]
      : r.requests.map((q) => `  ${q.name}: ${q.status === "verified" ? "reproduced" : q.status}`)),
    `  omitted: ${plural(o.assistant, "assistant reply", "assistant replies")}, ${plural(o.toolResult, "tool result")}, ${o.other} other; ${tokensText(r.tokensEstimate)}`,
    ...(r.system
      ? [
          `  system (the host sends it with the view): ${plural(r.system.messages, "system message")}; sections ${r.system.sections.join(", ") || "-"}; tools ${r.system.tools.join(", ") || "-"}`,
        ]
      : []),
    ...r.messages.map((m, i) => `  ${String(i).padStart(4)} ${preview(m)}`),
    ...(r.nestedCalls
      ? [
          `  nested calls (session metadata, not sent to the model): ${r.nestedCalls.calls}, ${r.nestedCalls.failed} failed${r.nestedCalls.recordIncomplete.length > 0 ? `; record incomplete at ${r.nestedCalls.recordIncomplete.join(",")}` : ""}`,
        ]
      : []),
    ...(r.branchErrors ?? r.invalidRecords ?? []).map((d) => `  line ${d.line}: ${d.code}: ${d.message}`),
  ].join("\n");
}

/** The view at a leaf (the active one for null) with the recorded requests made there, as `view` reports it. */
export function viewReport(shown: string, tree: SessionTree, leaf: string | null, recovery: boolean): ViewReport {
  const fold = foldTree(tree);
  const v = viewOfLeaf(tree, fold, leaf, recovery);
  const requests = recordedRequests(tree)
    .filter((q) => q.leafId !== null && q.leafId === v.leafId)
    .map((q) => {
      const verified = verifyRequest(tree, fold, q, kitVersion());
      return { number: q.number, digestEntryId: q.digestEntryId, status: verified.status, name: requestName(q) };
    });
  const report: ViewReport = {
    file: shown,
    leafId: v.leafId,
    anchorId: v.anchorIndex >= 0 ? v.anchorId : null,
    messages: v.messages,
    omitted: v.omitted,
    tokensEstimate: v.tokensEstimate,
    requests,
  };
  const { state: system, count } = systemState(v.system);
  if (count > 0) {
    const tools = system.tools.map((t) => (t as { name: string }).name);
    report.system = { messages: count, sections: Object.keys(system.sections), tools };
  }
  const nested = v.leafId === null ? undefined : leafSummary(fold, v.leafId).nestedCalls;
  if (nested) report.nestedCalls = nested;
  return report;
}
