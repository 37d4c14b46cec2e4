import type { Diagnostic } from "../log/diagnostics.js";
import type { EntryFacts, RequestFact, ToolCallFact } from "./entry-facts.js";
import type { Row, TableRows } from "./tables.js";

/**
 * The rows of one file's facts, as the whole-file index and the appended tail both write them: its `sessions` row,
 * its reader diagnostics, and the `requests`, `tool_calls` and `denials` rows of the entries taken while reading.
 */

export type DigestStatus = "verified" | "differs" | "other-version" | "not-recorded";

export interface DigestOutcome {
  status: DigestStatus;
  messages: number;
}

/** Rows of `requests`, `tool_calls` and `denials` from the facts taken while reading. */
export function addEntryRows(
  rows: TableRows,
  file: string,
  facts: EntryFacts,
  digestAt: (leafId: string) => DigestOutcome | undefined,
  messagesAt: (id: string) => number,
): void {
  for (const r of facts.requests) rows.requests.push(requestRow(file, r, digestAt, messagesAt));
  for (const c of facts.toolCalls) rows.tool_calls.push(toolCallRow(file, c));
  rows.denials.push(...facts.denials);
}

function requestRow(
  file: string,
  r: RequestFact,
  digestAt: (leafId: string) => DigestOutcome | undefined,
  messagesAt: (id: string) => number,
): Row {
  const digest = r.leafId === null ? undefined : digestAt(r.leafId);
  const messages = digest?.messages ?? (r.leafId === null ? 0 : messagesAt(r.leafId));
  return [
    file,
    r.requestId,
    r.leafId,
    r.model,
    r.provider,
    messages,
    digest?.status ?? "not-recorded",
    r.inputTokens,
    r.outputTokens,
    r.at,
    r.text,
  ];
}

function toolCallRow(file: string, c: ToolCallFact): Row {
  return [
    file,
    c.entryId,
    c.requestId,
    c.callId,
    c.tool,
    c.argsSha256,
    c.isError,
    c.errorCode,
    c.nested,
    c.resultEntryId,
  ];
}

/** A reader diagnostic, or one the index adds (a torn tail). */
export type FileDiagnostic = Pick<Diagnostic, "line" | "severity" | "message"> & { code: string };

export function diagnosticRow(file: string, d: FileDiagnostic): Row {
  return [file, d.line, d.code, d.message];
}

export function sessionRow(
  file: string,
  header: object | null,
  activeLeafId: string | null,
  entries: number,
  status: "ok" | "errors" | "unreadable",
  sha: string,
  indexedBytes: number,
  bytes = indexedBytes,
): Row {
  const h = (header ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  return [
    file,
    str(h.id),
    str(h.cwd),
    str(h.timestamp),
    str(h.hostVersion) ?? str(h.piVersion),
    entries,
    bytes,
    activeLeafId,
    status,
    sha,
    indexedBytes,
  ];
}
