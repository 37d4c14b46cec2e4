import type { BranchFold } from "../fold/branch-fold.js";
import { kitVersion } from "../package-root.js";
import type { SessionTree } from "../tree/session-tree.js";
import { recordedRequests } from "../view/recorded-requests.js";
import { RequestViews } from "../view/request-views.js";

/** What the page says of one request: its recorded digest reproduced, not reproduced, or no digest at all. */
export const REQUEST_MARKS = ["verified", "differs", "otherVersion", "notRecorded", "unchecked"] as const;
export type RequestMark = (typeof REQUEST_MARKS)[number];

export interface PageRequests {
  /** `[entry index of the request's leaf, index into REQUEST_MARKS]`, in file order of the leaves. */
  rows: [number, number][];
  counts: Record<RequestMark, number>;
}

/**
 * Every request the session shows: each recorded digest (checked by recomputing the view at its leaf while the
 * branches walked stay within `budget` entries), and each assistant reply whose request left no digest.
 */
export function requestStatuses(
  tree: SessionTree,
  fold: BranchFold,
  indexOf: ReadonlyMap<string, number>,
  budget: number,
): PageRequests {
  const version = kitVersion();
  const byLeaf = new Map<string, RequestMark>();
  let spent = 0;
  const views = new RequestViews(tree, fold);
  for (const request of recordedRequests(tree)) {
    if (request.leafId === null) continue;
    const cost = tree.depth(request.leafId) + 1;
    if (spent + cost > budget) {
      byLeaf.set(request.leafId, "unchecked");
      continue;
    }
    spent += cost;
    const status = views.verify(request, version).status;
    byLeaf.set(request.leafId, status === "unresolved" ? "notRecorded" : status);
  }
  for (const entry of tree.entries) {
    if (entry.type !== "message" || entry.message?.role !== "assistant") continue;
    const leaf = tree.parentOf(entry.id);
    if (leaf !== null && !byLeaf.has(leaf)) byLeaf.set(leaf, "notRecorded");
  }
  const counts = Object.fromEntries(REQUEST_MARKS.map((m) => [m, 0])) as Record<RequestMark, number>;
  const rows: [number, number][] = [];
  for (const [leaf, mark] of byLeaf) {
    counts[mark]++;
    rows.push([indexOf.get(leaf) ?? -1, REQUEST_MARKS.indexOf(mark)]);
  }
  rows.sort((a, b) => a[0] - b[0]);
  return { rows, counts };
}

/** One line for the page: "4 requests verified", "1 differs", … (empty when the session shows no request). */
export function requestsText(r: PageRequests): string {
  const c = r.counts;
  const parts = [
    c.verified ? `${c.verified} verified` : "",
    c.differs ? `${c.differs} ${c.differs === 1 ? "differs" : "differ"}` : "",
    c.otherVersion ? `${c.otherVersion} from another kit version` : "",
    c.notRecorded ? `${c.notRecorded} not recorded` : "",
    c.unchecked ? `${c.unchecked} not checked (budget)` : "",
  ].filter(Boolean);
  return parts.join(", ");
}
