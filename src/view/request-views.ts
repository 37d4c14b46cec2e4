import { outgoingView } from "../../projections/outgoing-view.js";
import type { StateSource } from "../fold/branch-fold.js";
import type { AgentMessage, SessionEntry, UserMessage } from "../log/entry-types.js";
import { entryMessage, GrowingContext } from "../tree/host-context.js";
import type { SessionTree } from "../tree/session-tree.js";
import { leafViewCore } from "./leaf-view.js";
import { type RecordedRequest, requestStatus, type VerifiedRequest, withSystemCheck } from "./recorded-requests.js";
import { DigestChain, messageDigest, requestDigestV1 } from "./request-digest.js";

/**
 * The view messages of many leaves of one tree, each the same as `viewOfLeaf(tree, fold, leaf).messages`, built
 * incrementally when the leaves follow one another down a branch (a live session's requests, in file order): the path,
 * the host context and the digest chain of the previous leaf are extended by the entries in between. Moving to another
 * branch keeps the shared part of the path; a compaction, a 1.x context edit or other 1.x content in the new entries
 * rebuilds the host context from the path, as `contextOfPath` does. The messages returned are valid until the next call.
 */
export class RequestViews {
  private readonly path: SessionEntry[] = [];
  private readonly onPath = new Map<string, number>();
  /** The user messages of `path`, and how many come before each of its entries. */
  private readonly users: UserMessage[] = [];
  private readonly usersBefore: number[] = [];
  /** The host context of `path`. */
  private readonly context = new GrowingContext();
  private system: AgentMessage[] = [];
  /** The previous view's digest chain. */
  private readonly chain = new DigestChain();

  constructor(
    private readonly tree: SessionTree,
    private readonly fold: StateSource,
  ) {}

  /** Moves to `leaf` (an entry of the tree); returns the entries new on the path, root first. */
  private moveTo(leaf: string): SessionEntry[] {
    const added: SessionEntry[] = [];
    let cursor: string | null = leaf;
    while (cursor !== null && !this.onPath.has(cursor)) {
      added.push(this.tree.get(cursor) as SessionEntry);
      cursor = this.tree.parentOf(cursor);
    }
    const keep = cursor === null ? 0 : (this.onPath.get(cursor) as number) + 1;
    if (keep < this.path.length) {
      for (let i = keep; i < this.path.length; i++) this.onPath.delete((this.path[i] as SessionEntry).id);
      this.path.length = keep;
      this.users.length = this.usersBefore[keep] as number;
      this.usersBefore.length = keep;
      this.context.restart();
    }
    added.reverse();
    for (const entry of added) {
      this.onPath.set(entry.id, this.path.length);
      this.path.push(entry);
      this.usersBefore.push(this.users.length);
      if (entry.type === "message" && entry.message?.role === "user") this.users.push(entry.message);
    }
    return added;
  }

  /** What the model is sent at `leaf` (an entry of the tree), as `viewOfLeaf` computes it. */
  messagesAt(leaf: string): readonly AgentMessage[] {
    const added = this.moveTo(leaf);
    const { host, system } = this.context.of(this.path, added);
    this.system = system;
    const messages = host.messages;
    const state = this.fold.stateAt(leaf);
    const anchorId = state.recovery.anchorId;
    const anchorEntry = anchorId === null ? undefined : this.tree.get(anchorId);
    return outgoingView({
      messages,
      state,
      anchor: anchorEntry ? entryMessage(anchorEntry) : null,
      branchUsers: () => this.users,
      recovery: true,
    }).messages;
  }

  /** `requestDigest(messages)`, reusing the chain of the previous call's messages as far as their digests agree. */
  digest(messages: readonly AgentMessage[]): string {
    return this.chain.of(messages.map(messageDigest));
  }

  /** `verifyRequest`, for requests taken in file order. */
  verify(request: RecordedRequest, kitVersion: string): VerifiedRequest {
    if (request.leafId === null) return { ...request, status: "unresolved", computed: null };
    const { messages, system } = this.tree.get(request.leafId)
      ? { messages: this.messagesAt(request.leafId), system: this.system }
      : leafViewCore(this.tree, this.fold, request.leafId);
    const computed = request.format === 1 ? requestDigestV1(messages) : this.digest(messages);
    return withSystemCheck({ ...request, status: requestStatus(request, computed, kitVersion), computed }, system);
  }
}
