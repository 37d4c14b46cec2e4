import { relative } from "node:path";
import type { Omitted } from "../../../projections/recovery-view.js";
import { foldTree } from "../../fold/session-fold.js";
import { textOf } from "../../fold/to-event.js";
import type { AgentMessage } from "../../log/entry-types.js";
import { kitVersion } from "../../package-root.js";
import { viewOfLeaf } from "../../view/leaf-view.js";
import { type RequestStatus, recordedRequests, requestName, verifyRequest } from "../../view/recorded-requests.js";
import { type Command, JSON_OPTION, UsageError } from "../command.js";
import { loadInput, singleFile } from "../inputs.js";

export interface ViewReport {
  file: string;
  leafId: string | null;
  anchorId: string | null;
  messages: AgentMessage[];
  omitted: Omitted;
  tokensEstimate: { full: number; view: number };
  /** The recorded live requests made at this leaf (usually one; none for a leaf no request was made at). */
  requests: { number: number; digestEntryId: string; status: RequestStatus; name: string }[];
}

function preview(message: AgentMessage): string {
  const text = "summary" in message ? message.summary : textOf(message);
  const flat = text.replace(/\s+/g, " ").trim();
  const calls =
    message.role === "assistant"
      ? message.content.filter((b) => b.type === "toolCall").map((b) => (b.type === "toolCall" ? b.name : ""))
      : [];
  const label = message.role === "custom" ? `custom:${message.customType}` : message.role;
  return `${label.padEnd(14)} ${flat.slice(0, 100)}${flat.length > 100 ? "…" : ""}${calls.length ? ` [calls ${calls.join(", ")}]` : ""}`;
}

export function formatView(r: ViewReport): string {
  const o = r.omitted;
  return [
    `${r.file} leaf ${r.leafId ?? "-"}: ${r.messages.length} messages${r.anchorId ? `, recovery view from marker ${r.anchorId}` : ", as the host builds it"}`,
    ...(r.requests.length === 0
      ? ["  no recorded request was made at this leaf"]
      : r.requests.map((q) => `  ${q.name}: ${q.status === "verified" ? "reproduced" : q.status}`)),
    `  omitted: ${o.assistant} assistant, ${o.toolResult} tool results, ${o.other} other; ~${r.tokensEstimate.view} of ~${r.tokensEstimate.full} tokens`,
    ...r.messages.map((m, i) => `  ${String(i).padStart(4)} ${preview(m)}`),
  ].join("\n");
}

export const viewCommand: Command = {
  name: "view",
  summary: "Show what the model would be sent for a leaf: the recovery view when the branch has an anchor.",
  usage: "context-kit view FILE [--leaf ID] [--no-recovery] [--json]",
  options: { ...JSON_OPTION, leaf: { type: "string" }, "no-recovery": { type: "boolean", default: false } },
  run({ values, positionals, cwd }) {
    const path = singleFile(positionals, cwd);
    const shown = relative(cwd, path) || path;
    const { tree, log } = loadInput(path, shown);
    const leaf = (values.leaf as string | undefined) ?? null;
    if (leaf !== null && !tree.get(leaf)) throw new UsageError(`no entry ${leaf} in ${shown}`);
    const fold = foldTree(tree);
    const v = viewOfLeaf(tree, fold, leaf, !values["no-recovery"]);
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
    return { exitCode: log.unusable ? 2 : 0, json: report, text: formatView(report) };
  },
};
