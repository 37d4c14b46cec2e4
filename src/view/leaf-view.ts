import { type OutgoingView, outgoingView } from "../../projections/outgoing-view.js";
import type { Omitted } from "../../projections/recovery-view.js";
import { estimateTokens } from "../../projections/token-estimate.js";
import type { KitState } from "../../reducers/state.js";
import type { StateSource } from "../fold/branch-fold.js";
import { kitRecordOf } from "../fold/kit-records.js";
import type { AgentMessage, UserMessage } from "../log/entry-types.js";
import {
  branchUsers,
  buildHostContext,
  contextOfPath,
  entryMessage,
  type HostContext,
  splitSystem,
} from "../tree/host-context.js";
import type { SessionTree } from "../tree/session-tree.js";

export interface LeafView {
  leafId: string | null;
  anchorId: string | null;
  /** What the model is sent for this leaf (host AgentMessage shape, before convertToLlm). */
  messages: AgentMessage[];
  omitted: Omitted;
  tokensEstimate: { full: number; view: number };
  /** Index of the marker in `messages` (of the first message after it when compacted away), -1 without a recovery view. */
  anchorIndex: number;
  /** The request-local messages the view added (root guidance first, policy reminder last). */
  added: Pick<OutgoingView, "guidance" | "reminder">;
  /** The host context as the host hands it to the `context` hook (1.x leaves its `system` messages out and restores them after). */
  host: HostContext;
  /** The 1.x `system` messages of the host context: sent with the view, outside the `context` hook. */
  system: AgentMessage[];
  state: KitState;
  branchUsers: UserMessage[];
}

/** A leaf's view without its token estimates (what `check` reads). */
export type LeafViewCore = Omit<LeafView, "tokensEstimate">;

/** The view of a saved leaf: the one projection over the host context and the state folded from the log. */
export function viewOfLeaf(tree: SessionTree, fold: StateSource, leafId: string | null, recovery = true): LeafView {
  const v = leafViewCore(tree, fold, leafId, recovery);
  const full = estimateTokens(v.host.messages);
  return {
    leafId: v.leafId,
    anchorId: v.anchorId,
    messages: v.messages,
    omitted: v.omitted,
    tokensEstimate: { full, view: v.messages === v.host.messages ? full : estimateTokens(v.messages) },
    anchorIndex: v.anchorIndex,
    added: v.added,
    host: v.host,
    system: v.system,
    state: v.state,
    branchUsers: v.branchUsers,
  };
}

/** `viewOfLeaf` but for the token estimates, which walk every message's content. */
export function leafViewCore(
  tree: SessionTree,
  fold: StateSource,
  leafId: string | null,
  recovery = true,
): LeafViewCore {
  const leaf = leafId ?? tree.activeLeafId;
  const path = leaf === null ? [] : tree.pathTo(leaf);
  // The branch is walked once: for a known leaf the host context is that of this path.
  const { host, system } = splitSystem(
    leaf !== null && tree.get(leaf) ? contextOfPath(path) : buildHostContext(tree, leaf),
  );
  const state = fold.stateAt(leaf);
  const users = branchUsers(path);
  const anchorId = state.recovery.anchorId;
  const anchorEntry = anchorId === null ? undefined : tree.get(anchorId);
  const view = outgoingView({
    messages: host.messages,
    state,
    anchor: anchorEntry ? entryMessage(anchorEntry) : null,
    branchUsers: () => users,
    recovery,
  });
  return {
    leafId: leaf,
    anchorId,
    messages: view.messages,
    omitted: view.omitted,
    anchorIndex: view.anchorIndex,
    added: { guidance: view.guidance, reminder: view.reminder },
    host,
    system,
    state,
    branchUsers: users,
  };
}

/** The anchor the state points at is a validated kit marker. */
export function anchorIsAuthentic(tree: SessionTree, anchorId: string | null): boolean {
  if (anchorId === null) return true;
  const entry = tree.get(anchorId);
  return entry !== undefined && kitRecordOf(entry)?.type === "recoveryMarker";
}
