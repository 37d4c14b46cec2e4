import type { Omitted } from "../../../projections/recovery-view.js";
import { foldTree } from "../../fold/session-fold.js";
import { textOf } from "../../fold/to-event.js";
import type { AgentMessage } from "../../log/entry-types.js";
import { kitVersion } from "../../package-root.js";
import { viewOfLeaf } from "../../view/leaf-view.js";
import { type RequestStatus, recordedRequests, requestName, verifyRequest } from "../../view/recorded-requests.js";
import { type Command, JSON_HELP, JSON_OPTION } from "../command.js";
import { loadUsable, resolveEntryId, singleFile } from "../inputs.js";
import { plural } from "../text.js";

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
  const label = message.role === "custom" ? `custom:${message.customType}` : message.role;
  return `${label.padEnd(14)} ${flat.slice(0, 100)}${flat.length > 100 ? "…" : ""}${calls.length ? ` [calls ${calls.join(", ")}]` : ""}`;
}

export function formatView(r: ViewReport): string {
  const o = r.omitted;
  return [
    `${r.file} leaf ${r.leafId ?? "-"}: ${plural(r.messages.length, "message")}${r.anchorId ? `, recovery view from marker ${r.anchorId}` : ", as the host builds it"}`,
    ...(r.requests.length === 0
      ? ["  no recorded request was made at this leaf"]
      : r.requests.map((q) => `  ${q.name}: ${q.status === "verified" ? "reproduced" : q.status}`)),
    `  omitted: ${plural(o.assistant, "assistant reply", "assistant replies")}, ${plural(o.toolResult, "tool result")}, ${o.other} other; ~${r.tokensEstimate.view} of ~${r.tokensEstimate.full} tokens`,
    ...r.messages.map((m, i) => `  ${String(i).padStart(4)} ${preview(m)}`),
  ].join("\n");
}

export const viewCommand: Command = {
  name: "view",
  summary: "Show what the model would be sent for a leaf: the recovery view when the branch has an anchor.",
  usage: "FILE [--leaf ID] [--no-recovery] [--json]",
  description:
    "Builds the messages the model would receive for the branch to a leaf (the active leaf unless --leaf): the host's own context, or the recovery view when the branch has a recovery marker (instructions, every user message of the branch, the marker and what follows it). Prints one row per message with its role and text (a reply that ended in a provider error shows the error), what the view leaves out, an estimate of the tokens saved, and whether each request the kit recorded at this leaf is reproduced. Exit 2 when the file is unreadable or not a Pi session file.",
  options: { ...JSON_OPTION, leaf: { type: "string" }, "no-recovery": { type: "boolean", default: false } },
  optionHelp: {
    "--leaf ID":
      "show the branch that ends at this entry instead of the active leaf (a unique prefix of the id is enough)",
    "--no-recovery": "show the host's own context even where a recovery marker applies (to compare the two)",
    ...JSON_HELP,
  },
  examples: ["context-kit view session.jsonl", "context-kit view session.jsonl --leaf 0000706a --no-recovery --json"],
  run({ values, positionals, cwd }) {
    const { path, shown } = singleFile(positionals, cwd);
    const { tree } = loadUsable(path, shown);
    const given = values.leaf as string | undefined;
    const leaf = given === undefined ? null : resolveEntryId(tree, given, shown);
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
    return { exitCode: 0, json: report, text: formatView(report) };
  },
};
