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

/** SHA-256 (hex) of the stable JSON of one message, memoised per message object. */
export function messageDigest(message: AgentMessage): string {
  let digest = memo.get(message);
  if (digest === undefined) {
    digest = createHash("sha256")
      .update(stableStringify(comparable(message)))
      .digest("hex");
    memo.set(message, digest);
  }
  return digest;
}

/**
 * The digest a live request records and `check` recomputes: `sha256:` + the SHA-256 of the messages' own digests
 * (`messageDigest`, in order), so a request rehashes only the messages it has not seen yet. A custom message counts
 * without its timestamp: the host stamps it once in memory when it is created and again on its entry when it
 * persists it, and no provider sends that field to the model.
 */
export function requestDigest(
  messages: readonly AgentMessage[],
  digestOf: (message: AgentMessage) => string = messageDigest,
): string {
  const parts = new Array<string>(messages.length);
  for (let i = 0; i < messages.length; i++) parts[i] = digestOf(messages[i] as AgentMessage);
  return `sha256:${createHash("sha256").update(parts.join("")).digest("hex")}`;
}
