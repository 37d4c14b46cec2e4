import { KIT, type RequestDigestData } from "../../reducers/contract/kit-entries.js";
import type { StateSource } from "../fold/branch-fold.js";
import { kitRecordOf } from "../fold/kit-records.js";
import type { AgentMessage } from "../log/entry-types.js";
import { entryMessage } from "../tree/host-context.js";
import type { SessionTree } from "../tree/session-tree.js";
import { leafViewCore } from "./leaf-view.js";
import { requestDigest, requestDigestV1 } from "./request-digest.js";
import { systemDigest } from "./system-digest.js";

/** A live request as the log records it: its digest entry and the leaf whose view it was. */
export interface RecordedRequest {
  /** 1-based, in file order. */
  number: number;
  digestEntryId: string;
  /** Null when the messages the request was made with never reached the file. */
  leafId: string | null;
  recorded: RequestDigestData;
  /** The entry's format: 2 chains the message digests, 1 hashes them joined. */
  format: 1 | 2;
}

/**
 * The request's leaf: the digest entry itself when the host had persisted everything, else the entry `pending` context
 * messages further down the chain the host wrote next (the first child in file order at each step).
 */
function requestLeaf(tree: SessionTree, digestEntryId: string, pending: number): string | null {
  let cursor = digestEntryId;
  let left = pending;
  while (left > 0) {
    const next = tree.childrenOf(cursor)[0];
    if (next === undefined) return null;
    cursor = next;
    const entry = tree.get(cursor);
    if (entry && entryMessage(entry) !== null) left--;
  }
  return cursor;
}

export function recordedRequests(tree: SessionTree): RecordedRequest[] {
  const out: RecordedRequest[] = [];
  for (const entry of tree.byId.values()) {
    if (entry.type !== "custom") continue;
    const record = kitRecordOf(entry);
    if (record?.type !== "requestDigest") continue;
    out.push({
      number: out.length + 1,
      digestEntryId: entry.id,
      leafId: requestLeaf(tree, entry.id, record.data.pending),
      recorded: record.data,
      format: entry.customType === KIT.requestDigestV1 ? 1 : 2,
    });
  }
  return out;
}

export type RequestStatus = "verified" | "differs" | "otherVersion" | "unresolved";

export interface VerifiedRequest extends RecordedRequest {
  status: RequestStatus;
  /** The digest of the view recomputed at the leaf (null when the leaf is not in the file). */
  computed: string | null;
  /** Where the request recorded a system part: its digest recomputed from the system messages at the leaf. */
  computedSystem?: string;
}

/**
 * A request whose messages were reproduced still differs when its recorded system part (the prompt and tools its
 * system messages replay to) is not what the host context at its leaf replays to.
 */
export function withSystemCheck(verified: VerifiedRequest, system: readonly AgentMessage[]): VerifiedRequest {
  const recorded = verified.recorded.system;
  if (!recorded || verified.status === "unresolved") return verified;
  const computedSystem = systemDigest(system).digest;
  const differs = computedSystem !== recorded.digest && verified.status === "verified";
  return { ...verified, computedSystem, ...(differs ? { status: "differs" as const } : {}) };
}

/** Recomputes the view at the request's leaf and compares its digest with the recorded one. */
export function verifyRequest(
  tree: SessionTree,
  fold: StateSource,
  request: RecordedRequest,
  kitVersion: string,
): VerifiedRequest {
  if (request.leafId === null) return { ...request, status: "unresolved", computed: null };
  const core = leafViewCore(tree, fold, request.leafId);
  const computed = request.format === 1 ? requestDigestV1(core.messages) : requestDigest(core.messages);
  return withSystemCheck({ ...request, status: requestStatus(request, computed, kitVersion), computed }, core.system);
}

/** Verified when the digests agree; else differs, or comes from another kit version. */
export function requestStatus(request: RecordedRequest, computed: string, kitVersion: string): RequestStatus {
  if (computed === request.recorded.digest) return "verified";
  return request.recorded.kitVersion === kitVersion ? "differs" : "otherVersion";
}

/** "request 3 (digest entry 1a2b3c4d, leaf 5e6f7a8b)". */
export function requestName(request: RecordedRequest): string {
  return `request ${request.number} (digest entry ${request.digestEntryId}, leaf ${request.leafId ?? "not in the file"})`;
}
