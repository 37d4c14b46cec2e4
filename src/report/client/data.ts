/**
 * The report client's data layer: decodes the embedded page model into typed arrays and indexes (children, depths,
 * the state at any entry, the tree of branches). No DOM: the tests run it in Node against the server-side fold.
 */
import type { StateSummary } from "../../fold/state-summary.js";
import { FLAG, MSG_MASK } from "../entry-flags.js";
import type { PageDiagnostic, SessionPageModel } from "../page-model.js";
import type { SliceName } from "../state-table.js";

export { FLAG, MSG_MASK };

const SLICES: readonly SliceName[] = ["request", "session", "denials", "fileIssues", "verification", "recovery"];

export interface Decoded {
  M: SessionPageModel;
  n: number;
  ids: readonly string[];
  parents: Int32Array;
  lines: Int32Array;
  flags: number[];
  kinds: number[];
  kindNames: string[];
  previews: string[];
  idIndex: Map<string, number>;
  childStart: Int32Array;
  childList: Int32Array;
  roots: number[];
  /** Entries in breadth-first order from the roots. */
  order: Int32Array;
  depth: Int32Array;
  labels: Map<number, string>;
  firstKept: Map<number, number>;
  owners: Map<number, number>;
  details: Map<number, string>;
  activeLeaf: number;
  leaves: number[];
  diagnostics: PageDiagnostic[];
}

export function decodeModel(M: SessionPageModel): Decoded {
  const E = M.entries;
  const n = E.ids.length;
  const parents = Int32Array.from(E.parents);
  const lines = new Int32Array(n);
  let line = 0;
  for (let i = 0; i < n; i++) {
    line += E.lineDeltas[i] as number;
    lines[i] = line;
  }
  const idIndex = new Map<string, number>();
  for (let i = 0; i < n; i++) idIndex.set(E.ids[i] as string, i);
  const childStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parents[i]! >= 0) childStart[parents[i]! + 1]!++;
  for (let i = 0; i < n; i++) childStart[i + 1]! += childStart[i]!;
  const next = childStart.slice(0, n);
  const childList = new Int32Array(childStart[n]!);
  const roots: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = parents[i]!;
    if (p >= 0) childList[next[p]!++] = i;
    else roots.push(i);
  }
  const order = new Int32Array(n);
  const depth = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (const root of roots) order[tail++] = root;
  while (head < tail) {
    const at = order[head++]!;
    for (let k = childStart[at]!; k < childStart[at + 1]!; k++) {
      const child = childList[k]!;
      depth[child] = depth[at]! + 1;
      order[tail++] = child;
    }
  }
  return {
    M,
    n,
    ids: E.ids,
    parents,
    lines,
    flags: E.flags,
    kinds: E.kinds,
    kindNames: M.kindNames,
    previews: E.previews,
    idIndex,
    childStart,
    childList,
    roots,
    order,
    depth,
    labels: new Map(M.labels),
    firstKept: new Map(M.compactions),
    owners: new Map(M.callOwners),
    details: new Map(M.details),
    activeLeaf: M.activeLeaf,
    leaves: M.leaves,
    diagnostics: M.diagnostics,
  };
}

export function childCount(D: Decoded, i: number): number {
  return D.childStart[i + 1]! - D.childStart[i]!;
}

export function pathTo(D: Decoded, i: number): number[] {
  const path: number[] = [];
  for (let c = i; c >= 0; c = D.parents[c]!) path.push(c);
  return path.reverse();
}

export function kindName(D: Decoded, i: number): string {
  return D.kindNames[D.kinds[i]!] as string;
}

export interface States {
  tupleAt(i: number): number;
  summaryAt(i: number): StateSummary;
  /** Slice names whose value differs from the parent's state. */
  changedAt(i: number): SliceName[];
}

/** The state summary at any entry: the nearest recorded change at or above it, memoised on the way down. */
export function makeStates(D: Decoded): States {
  const S = D.M.states;
  const at = new Int32Array(D.n);
  const known = new Uint8Array(D.n);
  for (let k = 0; k < S.changes.length; k += 2) {
    at[S.changes[k]!] = S.changes[k + 1]!;
    known[S.changes[k]!] = 1;
  }
  const tupleAt = (i: number): number => {
    if (i < 0) return 0;
    if (known[i]) return at[i]!;
    const chain: number[] = [];
    let c = i;
    while (c >= 0 && !known[c]) {
      chain.push(c);
      c = D.parents[c]!;
    }
    const t = c >= 0 ? at[c]! : 0;
    for (const entry of chain) {
      at[entry] = t;
      known[entry] = 1;
    }
    return t;
  };
  const slice = (t: number, s: number) => S.tuples[t * SLICES.length + s]!;
  const summaryOf = (t: number): StateSummary => {
    const out: Record<string, unknown> = {};
    SLICES.forEach((name, s) => {
      out[name] = S.slices[name][slice(t, s)];
    });
    return out as unknown as StateSummary;
  };
  return {
    tupleAt,
    summaryAt: (i) => summaryOf(tupleAt(i)),
    changedAt: (i) => {
      const t = tupleAt(i);
      const p = tupleAt(D.parents[i]!);
      return SLICES.filter((_, s) => slice(t, s) !== slice(p, s));
    },
  };
}

export function decodeRuns(runs: readonly number[]): number[] {
  const out: number[] = [];
  let value = 0;
  for (let i = 0; i < runs.length; i += 2) {
    for (let k = 0; k < runs[i + 1]!; k++) {
      value += runs[i]!;
      out.push(value);
    }
  }
  return out;
}

/** Path status codes: why an entry of the branch is or is not in the model view. */
export const ST_NONE = 0;
export const ST_SENT = 1;
export const ST_OMITTED = 2;
export const ST_NOT_IN_CONTEXT = 3;
export const ST_READDED = 4;

export interface Projection {
  leaf: number;
  path: number[];
  host: number[];
  view: number[];
  status: Int8Array;
  omitted: { assistant: number; toolResult: number; other: number };
  anchor: number;
  anchorIndex: number;
  tokens: { full: number; view: number };
}

/** The embedded projection of a leaf (null when the page left it out), with a status for each branch entry. */
export function makeProjections(D: Decoded): (leaf: number) => Projection | null {
  const byLeaf = new Map(D.M.projections.leaves.map((p) => [p.leaf, p]));
  return (leaf) => {
    const p = byLeaf.get(leaf);
    if (!p) return null;
    const path = pathTo(D, leaf);
    const host = decodeRuns(p.host);
    const view = decodeRuns(p.view);
    const inHost = new Set(host);
    const inView = new Set(view);
    const status = new Int8Array(path.length);
    path.forEach((e, i) => {
      if (inView.has(e)) status[i] = inHost.has(e) ? ST_SENT : ST_READDED;
      else if (inHost.has(e)) status[i] = ST_OMITTED;
      else if (D.flags[e]! & (MSG_MASK | FLAG.compaction)) status[i] = ST_NOT_IN_CONTEXT;
      else status[i] = ST_NONE;
    });
    return {
      leaf,
      path,
      host,
      view,
      status,
      omitted: p.omitted,
      anchor: p.anchor,
      anchorIndex: p.anchorIndex,
      tokens: p.tokens,
    };
  };
}

export interface Branch {
  leaf: number;
  start: number;
  fork: number;
  parent: number;
  children: Branch[];
  own: number;
  kit: number;
  users: number;
  denials: number;
  errors: number;
  firstUser?: number;
}

export interface Branches {
  /** For each entry, the leaf of the branch it belongs to. */
  best: Int32Array;
  byLeaf: Map<number, Branch>;
  tops: Branch[];
}

/**
 * The tree of branches: one branch per leaf. At a fork the child leading to the active leaf (else to the latest
 * leaf in the file) continues the branch; the other children start branches nested under it.
 */
export function makeBranches(D: Decoded): Branches {
  const n = D.n;
  const best = new Int32Array(n).fill(-1);
  const rank = new Float64Array(n).fill(-1);
  for (let k = n - 1; k >= 0; k--) {
    const i = D.order[k]!;
    if (childCount(D, i) === 0) {
      best[i] = i;
      rank[i] = i === D.activeLeaf ? Number.POSITIVE_INFINITY : i;
    }
    const p = D.parents[i]!;
    if (p >= 0 && rank[i]! > rank[p]!) {
      rank[p] = rank[i]!;
      best[p] = best[i]!;
    }
  }
  const byLeaf = new Map<number, Branch>();
  const branch = (leaf: number): Branch => {
    let b = byLeaf.get(leaf);
    if (!b) {
      b = { leaf, start: -1, fork: -1, parent: -1, children: [], own: 0, kit: 0, users: 0, denials: 0, errors: 0 };
      byLeaf.set(leaf, b);
    }
    return b;
  };
  for (const leaf of D.leaves) branch(leaf);
  const tops: Branch[] = [];
  for (let k = 0; k < n; k++) {
    const i = D.order[k]!;
    const b = branch(best[i]!);
    const par = D.parents[i]!;
    const f = D.flags[i]!;
    b.own++;
    if (f & (FLAG.kit | FLAG.kitInvalid)) b.kit++;
    if ((f & MSG_MASK) === 1) b.users++;
    if (f & FLAG.denial) b.denials++;
    if (f & FLAG.error) b.errors++;
    if (par < 0) {
      b.start = i;
      tops.push(b);
    } else if (best[par] !== best[i]) {
      b.start = i;
      b.fork = par;
      b.parent = best[par]!;
      branch(best[par]!).children.push(b);
    }
  }
  return { best, byLeaf, tops };
}
