import { keepsBeforeMarker } from "../../projections/context-in-force.js";
import { type Omitted, recoveryView } from "../../projections/recovery-view.js";
import { estimateTokens } from "../../projections/token-estimate.js";
import type { KitState } from "../../reducers/state.js";
import type { BranchFold } from "../fold/branch-fold.js";
import { kitRecordOf } from "../fold/kit-records.js";
import type { AgentMessage, UserMessage } from "../log/entry-types.js";
import { buildHostContext, type HostContext } from "../tree/host-context.js";
import type { SessionTree } from "../tree/session-tree.js";

export interface LeafView {
  leafId: string | null;
  anchorId: string | null;
  /** What the model would be sent for this leaf (host AgentMessage shape, before convertToLlm). */
  messages: AgentMessage[];
  omitted: Omitted;
  tokensEstimate: { full: number; view: number };
  /** Index of the marker in `messages` (of the first message after it when compacted away), -1 without a recovery view. */
  anchorIndex: number;
  host: HostContext;
  state: KitState;
  branchUsers: UserMessage[];
}

/** The request-local view of a saved leaf, computed offline exactly as the live hook would compute it. */
export function viewOfLeaf(tree: SessionTree, fold: BranchFold, leafId: string | null, recovery = true): LeafView {
  const leaf = leafId ?? tree.activeLeafId;
  const host = buildHostContext(tree, leaf);
  const state = fold.stateAt(leaf);
  const path = leaf === null ? [] : tree.pathTo(leaf);
  const branchUsers: UserMessage[] = [];
  const userIds: string[] = [];
  for (const entry of path) {
    if (entry.type === "message" && entry.message?.role === "user") {
      branchUsers.push(entry.message);
      userIds.push(entry.id);
    }
  }
  const anchorId = state.recovery.anchorId;
  let anchorIndex = anchorId === null ? -1 : host.sources.indexOf(anchorId);
  // A later compaction summarised the marker away: all the host still sends comes after it, so the recovery view
  // starts at the host's first message and only the user messages the compaction dropped are added back.
  if (anchorId !== null && anchorIndex < 0 && path.some((entry) => entry.id === anchorId)) anchorIndex = 0;
  const base = {
    leafId: leaf,
    anchorId,
    host,
    state,
    branchUsers,
    tokensEstimate: { full: estimateTokens(host.messages), view: 0 },
  };
  if (!recovery || anchorIndex < 0) {
    const omitted = { assistant: 0, toolResult: 0, other: 0 };
    base.tokensEstimate.view = base.tokensEstimate.full;
    return { ...base, messages: host.messages, omitted, anchorIndex: -1 };
  }
  const inContext = new Set(host.sources);
  const earlierUserMessages = branchUsers.filter((_, i) => !inContext.has(userIds[i] as string));
  const view = recoveryView({
    messages: host.messages,
    anchorIndex,
    earlierUserMessages,
    keepsCustom: keepsBeforeMarker,
  });
  base.tokensEstimate.view = estimateTokens(view.messages);
  const viewAnchor = view.messages.indexOf(host.messages[anchorIndex] as AgentMessage);
  return { ...base, messages: view.messages, omitted: view.omitted, anchorIndex: viewAnchor };
}

/** The anchor the state points at is a validated kit marker. */
export function anchorIsAuthentic(tree: SessionTree, anchorId: string | null): boolean {
  if (anchorId === null) return true;
  const entry = tree.get(anchorId);
  return entry !== undefined && kitRecordOf(entry)?.type === "recoveryMarker";
}
