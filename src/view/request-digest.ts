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

/**
 * The digest a live request records (`context-kit/request-digest/v2`) and `check` recomputes: a chain over the
 * messages, c₀ = SHA-256(""), cᵢ = SHA-256(cᵢ₋₁ ‖ messageDigest(mᵢ)), recorded as `sha256:` + cₙ. A request extends
 * the previous request's chain with the messages added since. A custom message counts without its timestamp: the
 * host stamps it once in memory when it is created and again on its entry when it persists it, and no provider sends
 * that field to the model.
 */
export function requestDigest(messages: readonly AgentMessage[]): string {
  return new DigestChain().of(messages.map(messageDigest));
}

/**
 * A request digest chain that remembers the message digests and links of the last request it was given: the next
 * request, which shares a prefix with it (requests of one branch, live or read back in file order), costs links
 * only for the digests after that prefix.
 */
export class DigestChain {
  private readonly digests: string[] = [];
  private readonly links: string[] = [];
  /** Links computed so far. */
  linked = 0;

  get length(): number {
    return this.digests.length;
  }

  /** Keeps the first `n` digests and their links. */
  keep(n: number): void {
    if (n >= this.digests.length) return;
    this.digests.length = n;
    this.links.length = n;
  }

  push(digest: string): void {
    const previous = this.links.length === 0 ? CHAIN_START : (this.links[this.links.length - 1] as string);
    this.digests.push(digest);
    this.links.push(chainStep(previous, digest));
    this.linked++;
  }

  /** The recorded digest of the chain, with one more message whose digest is `extra` (not kept). */
  value(extra?: string): string {
    const last = this.links.length === 0 ? CHAIN_START : (this.links[this.links.length - 1] as string);
    if (extra === undefined) return chainDigestOf(last);
    this.linked++;
    return chainDigestOf(chainStep(last, extra));
  }

  /** The recorded digest of messages with these digests, keeping the links of the prefix shared with the chain. */
  of(digests: readonly string[]): string {
    let same = 0;
    const limit = Math.min(digests.length, this.digests.length);
    while (same < limit && digests[same] === this.digests[same]) same++;
    this.keep(same);
    for (let i = same; i < digests.length; i++) this.push(digests[i] as string);
    return this.value();
  }
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
