import { foldAllLeaves, foldTree } from "../src/fold/session-fold.js";
import { loadSession } from "../src/session.js";
import { type HostApi, hostLoad } from "./host.js";
import { collectGarbage, median, ratio, timed } from "./stats.js";

export interface ReplayResult {
  entries: number;
  leaves: number;
  /** Median milliseconds of the memoised fold of every branch, from an empty memo. */
  kitMs: number;
  /** Reducer calls the kit made per run: each entry once. */
  kitReductions: number;
  /**
   * Median milliseconds of the host's `buildSessionContext(entries, leafId)` called once per leaf, as an offline
   * tool calls it (PI-HOST-NOTES §1.7): each call indexes the entries by id, then walks the branch.
   */
  hostMs: number;
  /** The same with the id index built once beforehand and passed in (as the host's SessionManager does). */
  hostIndexedMs: number;
  /** Entries the host walked per run (the sum of the branch lengths). */
  hostEntriesWalked: number;
  /** kitMs / hostMs (target ≤ 0.1: at least ten times faster). */
  ratio: number;
  /** kitMs / hostIndexedMs. */
  ratioIndexed: number;
  reps: number;
}

export function measureReplay(host: HostApi, file: string, reps: number): ReplayResult {
  const { tree } = loadSession(file);
  const leaves = tree.leaves();
  const { entries } = hostLoad(host, file);
  const byId = new Map(entries.map((e) => [e.id as string, e]));
  const hostWalked = leaves.reduce((sum, leaf) => sum + tree.depth(leaf) + 1, 0);
  const kit: number[] = [];
  const hostTimes: number[] = [];
  const indexedTimes: number[] = [];
  let reductions = 0;
  // One untimed run of each side first: compiled code and schema validators, as in a long-lived process.
  foldAllLeaves(tree);
  for (const leaf of leaves) host.buildSessionContext(entries, leaf);
  for (const leaf of leaves) host.buildSessionContext(entries, leaf, byId);
  for (let i = 0; i < reps; i++) {
    collectGarbage();
    kit.push(
      timed(() => {
        const fold = foldTree(tree);
        foldAllLeaves(tree, fold);
        reductions = fold.reductions;
      }).ms,
    );
    collectGarbage();
    hostTimes.push(
      timed(() => {
        for (const leaf of leaves) host.buildSessionContext(entries, leaf);
      }).ms,
    );
    collectGarbage();
    indexedTimes.push(
      timed(() => {
        for (const leaf of leaves) host.buildSessionContext(entries, leaf, byId);
      }).ms,
    );
  }
  const kitMs = median(kit);
  const hostMs = median(hostTimes);
  const hostIndexedMs = median(indexedTimes);
  return {
    entries: tree.size,
    leaves: leaves.length,
    kitMs,
    kitReductions: reductions,
    hostMs,
    hostIndexedMs,
    hostEntriesWalked: hostWalked,
    ratio: ratio(kitMs, hostMs),
    ratioIndexed: ratio(kitMs, hostIndexedMs),
    reps,
  };
}
