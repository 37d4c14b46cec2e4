import { KIT } from "../../reducers/contract/kit-entries.js";
import { recoveryMarker } from "../../src/kit/host-messages.js";
import { Random } from "./random.js";
import { denialDetails } from "./random-tree.js";
import { SessionBuilder } from "./session-builder.js";

export interface LiveSessionOptions {
  /** Request digest entries (about two messages each, as a live session records them). */
  requests: number;
  seed?: number;
  /** Chance per request of a move to an earlier entry (a new branch). */
  branch?: number;
}

const ZERO_DIGEST = `sha256:${"0".repeat(64)}`;

/**
 * A session as the live layer writes it: requests each followed by their digest entry (`pending` 0, or 1 when the
 * host had not yet persisted the latest message), with tool rounds, recovery markers, root guidance, denials,
 * compactions and branches between them. Digests are placeholders recorded by another kit version, so `check`
 * recomputes every view and warns instead of failing; for timing and for comparing two ways of recomputing.
 */
export function liveSession(options: LiveSessionOptions): SessionBuilder {
  const rnd = new Random(options.seed ?? 1);
  const b = new SessionBuilder({ seed: 7, sessionId: `live-${options.seed ?? 1}` });
  const digest = (pending: number) =>
    b.custom(KIT.requestDigest, { digest: ZERO_DIGEST, kitVersion: "0.0.0-synth", pending, messages: 0 });
  b.user("first request");
  for (let r = 0; r < options.requests; r++) {
    if (r > 4 && rnd.chance(options.branch ?? 0.002)) {
      const messages = b.entries.filter((e) => e.type === "message");
      b.at(rnd.pick(messages).id);
    }
    const roll = rnd.int(100);
    if (roll < 10) b.user(`request ${r}`);
    else if (roll < 12) {
      const m = recoveryMarker({ requestId: null, promiseEntryIds: [], reason: "stall" });
      b.customMessage(m.customType, m.content, m.details);
    } else if (roll < 13) b.custom(KIT.rootGuidance, { text: rnd.chance(0.5) ? `guidance ${r}` : null });
    else if (roll < 14) {
      const messages = b.entries.filter((e) => e.type === "message");
      const kept = messages[Math.max(0, messages.length - 6)];
      if (kept) b.compaction(`summary ${r}`, kept.id, 1000);
    }
    const pending = rnd.chance(0.3) ? 1 : 0;
    if (rnd.chance(0.5)) {
      const name = rnd.pick(["read", "grep", "bash"]);
      const denied = name !== "bash" && rnd.chance(0.05);
      const details = denied ? denialDetails("/p/gen") : undefined;
      const assistantId = b.assistant("", [{ name, args: { path: `src/f${rnd.int(50)}.ts` } }], "toolUse");
      if (pending === 0) {
        b.toolResult(b.toolCallId(assistantId), name, `result ${r} ${"x".repeat(rnd.int(200))}`, details, denied);
        digest(0);
      } else {
        digest(1);
        b.toolResult(b.toolCallId(assistantId), name, `result ${r}`, details, denied);
      }
    } else if (pending === 0) {
      b.assistant(`answer ${r}`);
      digest(0);
    } else {
      digest(1);
      b.assistant(`answer ${r}`);
    }
  }
  return b;
}
