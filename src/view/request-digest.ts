import { createHash } from "node:crypto";
import stableStringify from "fast-json-stable-stringify";
import type { AgentMessage } from "../log/entry-types.js";

/** A message as the digest sees it: a custom message without its timestamp (see `requestDigest`). */
export function comparable(message: AgentMessage): AgentMessage {
  if (message.role !== "custom") return message;
  const { timestamp: _stamped, ...rest } = message;
  return rest as AgentMessage;
}

const memo = new WeakMap<AgentMessage, string>();

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** SHA-256 (hex) of the stable JSON of one message, memoised per message object. */
export function messageDigest(message: AgentMessage): string {
  let digest = memo.get(message);
  if (digest === undefined) {
    digest = sha256(stableStringify(comparable(message)));
    memo.set(message, digest);
  }
  return digest;
}

/** The chain's value before any message. */
export const CHAIN_START = sha256("");

/** One link: the chain after a message whose `messageDigest` is `digest`. */
export function chainStep(previous: string, digest: string): string {
  return sha256(previous + digest);
}

/** The recorded form of a chain value. */
export const chainDigestOf = (chain: string) => `sha256:${chain}`;

/** The last link computed after each message object, with the link it followed (views of one tree share prefixes). */
const links = new WeakMap<AgentMessage, { previous: string; next: string }>();

/**
 * The digest a live request records (`context-kit/request-digest/v2`) and `check` recomputes: a chain over the
 * messages, c₀ = SHA-256(""), cᵢ = SHA-256(cᵢ₋₁ ‖ messageDigest(mᵢ)), recorded as `sha256:` + cₙ. A request extends
 * the previous request's chain with the messages added since. A custom message counts without its timestamp: the
 * host stamps it once in memory when it is created and again on its entry when it persists it, and no provider sends
 * that field to the model. Offline, links are memoised per message object, so the views of a file's requests, which
 * share their prefixes, hash each link once.
 */
export function requestDigest(messages: readonly AgentMessage[]): string {
  let chain = CHAIN_START;
  for (const message of messages) {
    const link = links.get(message);
    if (link?.previous === chain) {
      chain = link.next;
      continue;
    }
    const next = chainStep(chain, messageDigest(message));
    links.set(message, { previous: chain, next });
    chain = next;
  }
  return chainDigestOf(chain);
}

/**
 * The digest of `context-kit/request-digest/v1` entries, still verified by `check`: `sha256:` + the SHA-256 of the
 * messages' own digests (`messageDigest`, in order) joined.
 */
export function requestDigestV1(messages: readonly AgentMessage[]): string {
  const parts = new Array<string>(messages.length);
  for (let i = 0; i < messages.length; i++) parts[i] = messageDigest(messages[i] as AgentMessage);
  return `sha256:${sha256(parts.join(""))}`;
}
