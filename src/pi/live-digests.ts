import type { OutgoingView } from "../../projections/outgoing-view.js";
import type { AgentMessage, SessionEntry } from "../log/entry-types.js";
import { DigestChain, messageDigest } from "../view/request-digest.js";
import type { SessionView } from "./live-state.js";

/** Cheap facts that change when the message at a position is replaced; content sizes stand for the content. */
function witness(message: AgentMessage): string {
  const m = message as { role: string; timestamp?: unknown; toolCallId?: string };
  let size = 0;
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") size = content.length;
  else if (Array.isArray(content)) {
    for (const block of content as { text?: string; thinking?: string; data?: string }[]) {
      size += 1 + (block?.text?.length ?? 0) + (block?.thinking?.length ?? 0) + (block?.data?.length ?? 0);
    }
  }
  return `${m.role}\u0000${String(m.timestamp)}\u0000${m.toolCallId ?? ""}\u0000${size}`;
}

/** Positions whose witnesses are compared before a prefix is reused: the last ones, then halving towards 0. */
function probes(length: number): number[] {
  const out: number[] = [];
  for (let back = 1; back <= length; back *= 2) out.push(length - back);
  if (length > 0) out.push(0);
  return out;
}

/** Entries that at most append to the host's messages (a compaction, branch summary or 1.x context edit does more). */
const APPENDING = new Set([
  "message",
  "custom_message",
  "custom",
  "label",
  "session_info",
  "model_change",
  "thinking_level_change",
  "usage",
]);

/** The leaf has `ancestor` on its path, and only entries that append to the messages lie between them. */
function extendsLeaf(session: SessionView, ancestor: string | null): boolean {
  let id = session.getLeafId();
  while (id !== null) {
    if (id === ancestor) return true;
    const entry = session.getEntry(id) as SessionEntry | undefined;
    if (!entry || !APPENDING.has(entry.type)) return false;
    id = entry.parentId;
  }
  return ancestor === null;
}

/** What the last request cost: messages hashed, chain links computed, whether it started over. */
export interface DigestWork {
  messagesHashed: number;
  links: number;
  /** Nothing of the previous request was reused (first request, new session, compaction, branch switch, rewrite). */
  fromScratch: boolean;
}

interface HostMemo {
  sessionKey: string;
  /** The session's leaf when the request was digested (its digest entry is appended under it). */
  leafId: string | null;
  /** Per host message position: its digest and its witness. */
  digests: string[];
  witnesses: string[];
}

/**
 * Request digests (`requestDigest`'s chain) for one live process, in work proportional to what is new since the
 * previous request. The host hands every `context` call a fresh deep copy of its messages and only appends to them
 * while the session stays on its branch; it replaces them when it compacts, moves in the tree or switches sessions.
 * So the previous request's messages are reused as a prefix, with their digests and links, when the session is the
 * same, its leaf has the previous request's leaf on its path with only appending entries since, there are at least as
 * many messages, and the messages at the last positions and at positions halving towards the first show the same
 * role, timestamp, tool call and content size. Otherwise every message is hashed again. (An older message rewritten
 * for one request only, by another extension running before the kit, is found only at one of those positions.) A
 * recovery view reuses the previous view's links for the prefix they share.
 */
export class LiveDigests {
  private host: HostMemo | null = null;
  /** The chain of a pass-through request: the guidance's digest (when sent) and the host messages'. */
  private readonly hostChain = new DigestChain();
  private guidance: string | null = null;
  /** The chain of the last other view. */
  private readonly viewChain = new DigestChain();
  private work: DigestWork = { messagesHashed: 0, links: 0, fromScratch: true };

  /** What the last `digest` call did. */
  get lastWork(): DigestWork {
    return { ...this.work };
  }

  /** Forget everything (the host replaced its messages). */
  reset(): void {
    this.host = null;
    this.hostChain.keep(0);
    this.viewChain.keep(0);
  }

  digest(session: SessionView, hostMessages: readonly AgentMessage[], view: OutgoingView): string {
    this.work = { messagesHashed: 0, links: 0, fromScratch: false };
    const linked = this.hostChain.linked + this.viewChain.linked;
    const memo = this.hostDigests(session, hostMessages);
    const added = (view.guidance ? 1 : 0) + (view.reminder ? 1 : 0);
    const digest =
      view.anchorIndex < 0 && view.messages.length === hostMessages.length + added
        ? this.passThrough(memo, view)
        : this.wholeView(memo, hostMessages, view);
    this.work.links = this.hostChain.linked + this.viewChain.linked - linked;
    return digest;
  }

  private hash(message: AgentMessage): string {
    this.work.messagesHashed++;
    return messageDigest(message);
  }

  /** The host messages' digests and witnesses, reusing the previous request's for the prefix shown unchanged. */
  private hostDigests(session: SessionView, messages: readonly AgentMessage[]): HostMemo {
    const sessionKey = `${session.getSessionId()}\u0000${session.getSessionFile() ?? ""}`;
    let memo = this.host;
    const reusable =
      memo !== null &&
      memo.sessionKey === sessionKey &&
      messages.length >= memo.digests.length &&
      extendsLeaf(session, memo.leafId) &&
      probes(memo.digests.length).every((i) => witness(messages[i] as AgentMessage) === memo?.witnesses[i]);
    if (!memo || !reusable) {
      this.work.fromScratch = true;
      memo = { sessionKey, leafId: null, digests: [], witnesses: [] };
      this.host = memo;
      this.hostChain.keep(0);
    }
    memo.leafId = session.getLeafId();
    for (let i = memo.digests.length; i < messages.length; i++) {
      const message = messages[i] as AgentMessage;
      memo.digests.push(this.hash(message));
      memo.witnesses.push(witness(message));
    }
    return memo;
  }

  /** Guidance, the host's messages as they are, reminder: the host chain is extended by the new messages only. */
  private passThrough(memo: HostMemo, view: OutgoingView): string {
    const chain = this.hostChain;
    const guidance = view.guidance ? this.hash(view.guidance) : null;
    if (guidance !== this.guidance) {
      this.guidance = guidance;
      chain.keep(0);
    }
    const offset = guidance === null ? 0 : 1;
    if (guidance !== null && chain.length === 0) chain.push(guidance);
    for (let i = chain.length - offset; i < memo.digests.length; i++) chain.push(memo.digests[i] as string);
    return chain.value(view.reminder ? this.hash(view.reminder) : undefined);
  }

  /** Any other view (a recovery view): its digests, chained on from the prefix it shares with the last one. */
  private wholeView(memo: HostMemo, host: readonly AgentMessage[], outgoing: OutgoingView): string {
    // The view's host messages keep their order: match them walking both lists back from the end.
    const view = outgoing.messages;
    const digests = new Array<string>(view.length);
    let at = host.length - 1;
    for (let j = view.length - 1; j >= 0; j--) {
      const message = view[j] as AgentMessage;
      let p = message === outgoing.reminder || message === outgoing.guidance ? -1 : at;
      while (p >= 0 && host[p] !== message) p--;
      if (p >= 0) {
        digests[j] = memo.digests[p] as string;
        at = p - 1;
      } else {
        digests[j] = this.hash(message);
      }
    }
    return this.viewChain.of(digests);
  }
}
