/**
 * The guarantee checked end to end: for every request a live run made, the offline view at that request's leaf,
 * converted with the host's own `convertToLlm`, is what the faux provider received, message for message. A custom
 * message is compared without its timestamp (the host stamps it anew when it persists it; see request-digest.ts).
 */
import { expect } from "vitest";
import { foldTree } from "../../src/fold/session-fold.js";
import type { AgentMessage } from "../../src/log/entry-types.js";
import { kitVersion } from "../../src/package-root.js";
import { loadSession } from "../../src/session.js";
import { viewOfLeaf } from "../../src/view/leaf-view.js";
import { recordedRequests, verifyRequest } from "../../src/view/recorded-requests.js";
import type { FauxRequest } from "./faux-common.js";

type ConvertToLlm = (messages: AgentMessage[]) => unknown[];

/** 1.x sends the prompt and tools as leading `system` messages; the faux log leaves them out (faux-cli-ext.ts). */
const withoutSystem = (messages: unknown[]) => messages.filter((m) => (m as { role?: string }).role !== "system");

function comparable(sent: unknown[], view: readonly AgentMessage[]): unknown[] {
  const kept = view.filter((m) => m.role !== "system");
  return withoutSystem(sent).map((message, i) => {
    const copy = JSON.parse(JSON.stringify(message)) as Record<string, unknown>;
    if (kept[i]?.role === "custom") delete copy.timestamp;
    return copy;
  });
}

/**
 * `requests` are every provider request the session's runs made, in order (the session's own; a run that ends in
 * a provider error still counts). `unsent`: how many last recorded requests were aborted before they reached the
 * provider (their digests are still verified). Returns how many requests were compared.
 */
export function expectViewsReproduceRequests(
  sessionFile: string,
  requests: readonly Pick<FauxRequest, "llmMessages">[],
  convertToLlm: ConvertToLlm,
  unsent = 0,
): number {
  const { tree } = loadSession(sessionFile);
  const fold = foldTree(tree);
  const recorded = recordedRequests(tree);
  expect(recorded, "one digest entry per provider request").toHaveLength(requests.length + unsent);
  for (const request of recorded.slice(requests.length)) {
    expect(verifyRequest(tree, fold, request, kitVersion()).status, `request ${request.number} digest`).toBe(
      "verified",
    );
  }
  recorded.slice(0, requests.length).forEach((request, i) => {
    expect(request.leafId, `request ${request.number}: its leaf is in the file`).not.toBeNull();
    const view = viewOfLeaf(tree, fold, request.leafId).messages;
    const offline = convertToLlm(view);
    const received = (requests[i] as Pick<FauxRequest, "llmMessages">).llmMessages;
    expect(comparable(offline, view), `request ${request.number}`).toEqual(comparable(received, view));
    expect(verifyRequest(tree, fold, request, kitVersion()).status, `request ${request.number} digest`).toBe(
      "verified",
    );
  });
  return recorded.length;
}
