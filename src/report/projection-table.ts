import type { Omitted } from "../../projections/recovery-view.js";
import type { BranchFold } from "../fold/branch-fold.js";
import type { AgentMessage } from "../log/entry-types.js";
import type { SessionTree } from "../tree/session-tree.js";
import { viewOfLeaf } from "../view/leaf-view.js";

/** What the model would be sent for one leaf, computed by `viewOfLeaf` (the same code `view` runs). */
export interface LeafProjection {
  leaf: number;
  /** Entry indices of the host's context messages and of the model view, in order, run-length coded (`encodeRuns`). */
  host: number[];
  view: number[];
  /** Entry index of the recovery marker the view starts from, -1 when the host context is sent as is. */
  anchor: number;
  /** Index in the view of the marker's message, -1 without a recovery view. */
  anchorIndex: number;
  omitted: Omitted;
  tokens: { full: number; view: number };
  /** Request-local messages the view also carries, which are not entries: root guidance first, the reminder last. */
  added: { guidance: boolean; reminder: boolean };
}

export interface ProjectionTable {
  leaves: LeafProjection[];
  /** Leaves left out because the budget was spent: `context-kit view FILE --leaf ID` shows them. */
  skipped: number;
}

/**
 * A list of indices as `[delta, repeat]` pairs: `[5, 1, 1, 3]` is 5, 6, 7, 8. A branch's entries mostly follow one
 * another in the file, so a 100k-message view takes a few numbers per gap.
 */
export function encodeRuns(values: readonly number[]): number[] {
  const out: number[] = [];
  let previous = 0;
  for (const value of values) {
    const delta = value - previous;
    previous = value;
    const n = out.length;
    if (n > 0 && out[n - 2] === delta) out[n - 1] = (out[n - 1] as number) + 1;
    else out.push(delta, 1);
  }
  return out;
}

export function decodeRuns(runs: readonly number[]): number[] {
  const out: number[] = [];
  let value = 0;
  for (let i = 0; i < runs.length; i += 2) {
    for (let k = 0; k < (runs[i + 1] as number); k++) {
      value += runs[i] as number;
      out.push(value);
    }
  }
  return out;
}

/**
 * Projections of the active leaf first, then of the other leaves latest first, while the branch lengths computed so
 * far stay within `budget` entries (each costs a walk of its branch).
 */
export function projectLeaves(
  tree: SessionTree,
  fold: BranchFold,
  indexOf: ReadonlyMap<string, number>,
  budget: number,
): ProjectionTable {
  const leaves = tree.leaves();
  const active = tree.activeLeafId;
  const order = [...(active !== null && leaves.includes(active) ? [active] : []), ...[...leaves].reverse()];
  const done = new Set<string>();
  const out: LeafProjection[] = [];
  let spent = 0;
  for (const leafId of order) {
    if (done.has(leafId)) continue;
    // The first leaf is projected whatever its length, which its path then gives: no depth is asked of the tree.
    const cost = out.length === 0 ? 0 : tree.depth(leafId) + 1;
    if (out.length > 0 && spent + cost > budget) continue;
    done.add(leafId);
    const { projection, pathLength } = projectLeaf(tree, fold, indexOf, leafId);
    spent += out.length === 0 ? pathLength : cost;
    out.push(projection);
  }
  out.sort((a, b) => a.leaf - b.leaf);
  return { leaves: out, skipped: leaves.length - out.length };
}

function projectLeaf(
  tree: SessionTree,
  fold: BranchFold,
  indexOf: ReadonlyMap<string, number>,
  leafId: string,
): { projection: LeafProjection; pathLength: number } {
  const v = viewOfLeaf(tree, fold, leafId);
  const source = new Map<AgentMessage, number>();
  const path = tree.pathTo(leafId);
  for (const entry of path) {
    if (entry.type === "message" && entry.message) source.set(entry.message, indexOf.get(entry.id) as number);
  }
  v.host.messages.forEach((m, i) => {
    source.set(m, indexOf.get(v.host.sources[i] as string) ?? -1);
  });
  const at = (m: AgentMessage) => source.get(m) ?? -1;
  const { guidance, reminder } = v.added;
  const entries = v.messages.filter((m) => m !== guidance && m !== reminder);
  const projection: LeafProjection = {
    leaf: indexOf.get(leafId) as number,
    host: encodeRuns(v.host.messages.map(at)),
    view: encodeRuns(entries.map(at)),
    anchor: v.anchorIndex < 0 || v.anchorId === null ? -1 : (indexOf.get(v.anchorId) ?? -1),
    anchorIndex: guidance && v.anchorIndex > 0 ? v.anchorIndex - 1 : v.anchorIndex,
    omitted: v.omitted,
    tokens: v.tokensEstimate,
    added: { guidance: guidance !== null, reminder: reminder !== null },
  };
  return { projection, pathLength: path.length };
}
