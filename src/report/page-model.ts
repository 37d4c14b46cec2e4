import { denialOf } from "../../reducers/denials.js";
import { toolLoopEpisodes } from "../../reducers/tool-loop.js";
import { foldTree } from "../fold/session-fold.js";
import type { Severity } from "../log/diagnostics.js";
import type { SessionEntry } from "../log/entry-types.js";
import type { LoadedSession } from "../session.js";
import { compactCopy, entryFacts, FLAG } from "./entry-kinds.js";
import { type ProjectionTable, projectLeaves } from "./projection-table.js";
import { type PageRequests, requestStatuses } from "./request-status.js";
import { type SessionSummary, summarizeSession } from "./session-summary.js";
import { type StateTable, StateTableBuilder } from "./state-table.js";

/** Entries in columns (one array per field, index = entry index): compact for 100k-entry sessions. */
export interface PageEntries {
  ids: readonly string[];
  /** Entry index of the parent; -1 for a root (including an orphan). */
  parents: number[];
  /** `line[i] - line[i - 1]`, starting from 0: mostly 1, so short in JSON. */
  lineDeltas: number[];
  /** Index into `kindNames`. */
  kinds: number[];
  /** `MSG` code in the low three bits, then `FLAG` bits. */
  flags: number[];
  previews: string[];
}

export interface PageDiagnostic {
  line: number;
  code: string;
  severity: Severity;
  message: string;
  /** Entry index the diagnostic names, -1 when none (a dropped line has no entry). */
  entry: number;
  /** Entries cut off from their root by this problem, and the leaves of the branches they start. */
  orphans: number[];
  orphanLeaves: number[];
  /** Entries below the orphans: every entry that loses its path to the root (the count the message gives). */
  lost: number;
}

export interface PageHeader {
  id: string;
  cwd: string;
  timestamp: string;
  version: number | null;
  parentSession: string | null;
}

/** Everything a session page shows, serialisable as JSON; computed once, rendered by the client script. */
export interface SessionPageModel {
  format: 1;
  file: string;
  header: PageHeader | null;
  sourceVersion: number;
  bytes: number;
  unusable: boolean;
  activeLeaf: number;
  /** Entry indices without children, in file order. */
  leaves: number[];
  entries: PageEntries;
  kindNames: string[];
  /** `[entry index, label]` for labelled entries. */
  labels: [number, string][];
  /** `[compaction entry, its first kept entry or -1]`. */
  compactions: [number, number][];
  /**
   * `[tool result, assistant entry that made its call or -1]`, only where that assistant is not the result's parent:
   * the nearest ancestor with the call id, as the recovery view pairs them.
   */
  callOwners: [number, number][];
  states: StateTable;
  projections: ProjectionTable;
  /** Each request the session shows, marked verified / differs / not recorded by recomputing its view. */
  requests: PageRequests;
  /** `[entry index, the record as JSON]`, within a size budget: the active branch from its leaf up first. */
  details: [number, string][];
  diagnostics: PageDiagnostic[];
  summary: SessionSummary;
}

export interface PageModelOptions {
  /** Characters of full entry text embedded in all (default 2,000,000). */
  detailBudget?: number;
  /** Characters of one entry's text (default 4,000). */
  detailChars?: number;
  /** Branch entries walked to compute leaf projections (default 1,000,000): the active leaf's always is. */
  projectionBudget?: number;
}

/** The ids of an assistant message's tool calls, in order; null when it makes none. */
function callIdsOf(entry: SessionEntry): string[] | null {
  if (entry.type !== "message" || entry.message?.role !== "assistant" || !Array.isArray(entry.message.content)) {
    return null;
  }
  let ids: string[] | null = null;
  for (const b of entry.message.content) {
    if (b?.type !== "toolCall") continue;
    ids ??= [];
    ids.push(b.id);
  }
  return ids;
}

function detailText(entry: SessionEntry, max: number): string {
  const text = JSON.stringify(entry, null, 2);
  // Flat: a cut text would otherwise keep the whole record's JSON alive as its parent.
  return text.length > max ? compactCopy(`${text.slice(0, max)}\n… ${text.length - max} more characters`) : text;
}

/** The members of a page model its data ends with, computed after the others. */
type LaterMember = "projections" | "requests" | "details" | "diagnostics" | "summary";

/**
 * A page model in two parts, in the order of its members: the entries and states, and the views computed from them,
 * made when first asked for (a writer gzips the first part meanwhile).
 */
export interface PageModelParts {
  first: Omit<SessionPageModel, LaterMember>;
  rest(): Pick<SessionPageModel, LaterMember>;
}

/** Everything a session page shows, at once. */
export function buildPageModel(file: string, session: LoadedSession, options: PageModelOptions = {}): SessionPageModel {
  const parts = pageModelParts(file, session, options);
  return { ...parts.first, ...parts.rest() };
}

export function pageModelParts(file: string, session: LoadedSession, options: PageModelOptions = {}): PageModelParts {
  const { tree, log } = session;
  const { order } = tree;
  const { ids, indexOf } = order;
  const at = (id: string | null | undefined) => (id == null ? -1 : (indexOf.get(id) ?? -1));
  const fold = foldTree(tree);
  const states = new StateTableBuilder(fold.initialState());
  const kindIndex = new Map<string, number>();
  const entries: PageEntries = { ids, parents: [], lineDeltas: [], kinds: [], flags: [], previews: [] };
  const compactions: [number, number][] = [];
  const deniedScopes = new Set<string>();
  let previousLine = 0;
  let stallStops = 0;
  let recoveries = 0;
  let denials = 0;

  /** Each entry's state index, -1 until it is visited. */
  const stateOf = new Int32Array(ids.length).fill(-1);
  // Every state is read once, in file order, and dropped: the fold keeps those at forks and leaves only.
  fold.eachState(order, (i, state) => {
    const id = ids[i] as string;
    const entry = order.entries[i] as SessionEntry;
    const parent = order.parents[i] as number;
    const facts = entryFacts(entry);
    let kind = kindIndex.get(facts.kind);
    if (kind === undefined) {
      kind = kindIndex.size;
      kindIndex.set(facts.kind, kind);
    }
    let flags = facts.flags;
    if (parent < 0 && typeof entry.parentId === "string" && entry.parentId !== id) flags |= FLAG.orphan;
    if (entry.type === "compaction") compactions.push([i, at(entry.firstKeptEntryId)]);
    if (facts.record?.type === "stallStop") stallStops++;
    if (facts.record?.type === "recoveryMarker") recoveries++;
    if (flags & FLAG.denial && entry.type === "message" && entry.message.role === "toolResult") {
      denials++;
      deniedScopes.add(denialOf(entry.message.details)?.scope ?? "");
    }
    const line = tree.positionAt(i)?.line ?? 0;
    entries.parents.push(parent);
    entries.lineDeltas.push(line - previousLine);
    entries.kinds.push(kind);
    entries.flags.push(flags);
    entries.previews.push(facts.preview);
    previousLine = line;
    const stateIndex = states.intern(state);
    stateOf[i] = stateIndex;
    const known = parent < 0 ? -1 : (stateOf[parent] as number);
    const parentState = parent < 0 ? 0 : known >= 0 ? known : states.intern(fold.stateAt(ids[parent] as string));
    states.record(i, stateIndex, parentState);
  });

  const leaves = tree.leaves().map(at);
  const activeLeaf = at(tree.activeLeafId);
  // Every call and result of a tool-loop episode on any branch is marked on the timeline.
  for (const leaf of leaves) {
    for (const episode of toolLoopEpisodes(fold.stateAt(ids[leaf] as string).toolLoop)) {
      for (const id of episode.entryIds) {
        const e = indexOf.get(id);
        if (e !== undefined) entries.flags[e] = (entries.flags[e] as number) | FLAG.loop;
      }
    }
  }
  const summary = summarizeSession(
    {
      entries: ids.length,
      branches: leaves.length,
      activeLeafId: tree.activeLeafId,
      stallStops,
      recoveries,
      denials,
      deniedScopes: deniedScopes.size,
      unusable: log.unusable,
    },
    fold.stateAt(tree.activeLeafId),
    leaves.map((leaf) => fold.stateAt(ids[leaf] as string)),
    session.diagnostics,
  );
  const header = log.header;
  const first: PageModelParts["first"] = {
    format: 1,
    file,
    header: header && {
      id: String(header.id),
      cwd: String(header.cwd ?? ""),
      timestamp: String(header.timestamp ?? ""),
      version: typeof header.version === "number" ? header.version : null,
      parentSession: header.parentSession ?? null,
    },
    sourceVersion: log.sourceVersion,
    bytes: log.bytes,
    unusable: log.unusable,
    activeLeaf,
    leaves,
    entries,
    kindNames: [...kindIndex.keys()],
    labels: [...tree.labels].flatMap(([target, label]) => (indexOf.has(target) ? [[at(target), label]] : [])) as [
      number,
      string,
    ][],
    compactions,
    callOwners: callOwners(session, indexOf, entries.parents),
    states: states.table,
  };
  let rest: ReturnType<PageModelParts["rest"]> | null = null;
  return {
    first,
    rest: () => {
      rest ??= {
        projections: projectLeaves(tree, fold, indexOf, options.projectionBudget ?? 1_000_000),
        requests: requestStatuses(tree, fold, indexOf, options.projectionBudget ?? 1_000_000),
        details: details(session, ids, activeLeaf, entries, options),
        diagnostics: pageDiagnostics(session, indexOf),
        summary,
      };
      return rest;
    },
  };
}

/** For each tool result, the nearest ancestor assistant that made its call; kept only where it is not the parent. */
function callOwners(
  session: LoadedSession,
  indexOf: ReadonlyMap<string, number>,
  parents: number[],
): [number, number][] {
  return callOwnersNearby(session, parents) ?? callOwnersByWalk(session, indexOf, parents);
}

/** Ancestors looked at from a tool result before the whole tree is walked instead. */
const OWNER_STEPS = 64;

/**
 * `callOwners` found by looking up from each tool result, where its call almost always is a step or a few away;
 * null when one is further than `OWNER_STEPS` (the caller then walks the tree). Holds nothing per call.
 */
export function callOwnersNearby(session: LoadedSession, parents: readonly number[]): [number, number][] | null {
  const { entries } = session.tree.order;
  const out: [number, number][] = [];
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as SessionEntry;
    if (entry.type !== "message" || entry.message?.role !== "toolResult") continue;
    const call = String(entry.message.toolCallId);
    let owner = -1;
    for (let cursor = parents[index] as number, steps = 0; cursor >= 0; cursor = parents[cursor] as number, steps++) {
      if (steps === OWNER_STEPS) return null;
      if (callIdsOf(entries[cursor] as SessionEntry)?.includes(call)) {
        owner = cursor;
        break;
      }
    }
    if (owner !== parents[index]) out.push([index, owner]);
  }
  return out;
}

/** `callOwners` by one depth-first walk of the tree, keeping the open calls of the path it is on. */
export function callOwnersByWalk(
  session: LoadedSession,
  indexOf: ReadonlyMap<string, number>,
  parents: number[],
): [number, number][] {
  const { tree } = session;
  const open = new Map<string, number[]>();
  const out: [number, number][] = [];
  // A depth-first walk: each id is pushed once to visit it and, when it makes calls, once more to leave it.
  const work: string[] = [...tree.roots];
  const leaving: boolean[] = tree.roots.map(() => false);
  while (work.length > 0) {
    const id = work.pop() as string;
    const left = leaving.pop() as boolean;
    const entry = tree.get(id) as SessionEntry;
    const calls = callIdsOf(entry);
    if (left) {
      if (calls !== null) for (const call of calls) open.get(call)?.pop();
      continue;
    }
    const index = indexOf.get(id) as number;
    if (entry.type === "message" && entry.message?.role === "toolResult") {
      const owner = open.get(String(entry.message.toolCallId))?.at(-1) ?? -1;
      if (owner !== parents[index]) out.push([index, owner]);
    }
    if (calls !== null) {
      for (const call of calls) {
        const stack = open.get(call);
        if (stack) stack.push(index);
        else open.set(call, [index]);
      }
      work.push(id);
      leaving.push(true);
    }
    for (const child of tree.childrenOf(id)) {
      work.push(child);
      leaving.push(false);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

function details(
  session: LoadedSession,
  ids: readonly string[],
  activeLeaf: number,
  entries: PageEntries,
  options: PageModelOptions,
): [number, string][] {
  let budget = options.detailBudget ?? 2_000_000;
  const max = options.detailChars ?? 4_000;
  const order: number[] = [];
  for (let i = activeLeaf; i >= 0; i = entries.parents[i] as number) order.push(i);
  entries.flags.forEach((flags, i) => {
    if (flags & (FLAG.kit | FLAG.kitInvalid)) order.push(i);
  });
  for (let i = 0; i < ids.length; i++) order.push(i);
  const out = new Map<number, string>();
  for (const i of order) {
    if (budget <= 0) break;
    if (out.has(i)) continue;
    const text = detailText(session.tree.get(ids[i] as string) as SessionEntry, max);
    out.set(i, text);
    budget -= text.length;
  }
  return [...out].sort((a, b) => a[0] - b[0]);
}

function pageDiagnostics(session: LoadedSession, indexOf: ReadonlyMap<string, number>): PageDiagnostic[] {
  const { tree, log } = session;
  const leavesOf = new Map<string, number[]>();
  const leavesUnder = (root: string): number[] => {
    const known = leavesOf.get(root);
    if (known) return known;
    const out: number[] = [];
    const stack = [root];
    while (stack.length > 0) {
      const id = stack.pop() as string;
      const kids = tree.childrenOf(id);
      if (kids.length === 0) out.push(indexOf.get(id) as number);
      else stack.push(...kids);
    }
    out.sort((a, b) => a - b);
    leavesOf.set(root, out);
    return out;
  };
  const subtreeSize = (root: string): number => {
    let size = 0;
    const stack = [root];
    while (stack.length > 0) {
      size++;
      stack.push(...tree.childrenOf(stack.pop() as string));
    }
    return size;
  };
  const orphansByMissingParent = new Map<string, string[]>();
  for (const id of tree.orphans) {
    const missing = tree.get(id)?.parentId;
    if (missing) orphansByMissingParent.set(missing, [...(orphansByMissingParent.get(missing) ?? []), id]);
  }
  const droppedAt = new Map(log.dropped.map((d) => [`${d.line}:${d.code}`, d.ids]));
  return session.diagnostics.map((d) => {
    let orphans: string[] = [];
    if (d.entryId !== undefined && (d.code === "E_MISSING_PARENT" || d.code === "E_CYCLE")) orphans = [d.entryId];
    else {
      const dropped = droppedAt.get(`${d.line}:${d.code}`) ?? [];
      orphans = dropped.flatMap((id) => orphansByMissingParent.get(id) ?? []);
    }
    const orphanLeaves = [...new Set(orphans.flatMap(leavesUnder))].sort((a, b) => a - b);
    const lost = orphans.reduce((n, id) => n + subtreeSize(id), 0);
    return {
      line: d.line,
      code: d.code,
      severity: d.severity,
      message: d.message,
      entry: d.entryId === undefined ? -1 : (indexOf.get(d.entryId) ?? -1),
      orphans: orphans.map((id) => indexOf.get(id) as number),
      orphanLeaves,
      lost,
    };
  });
}
