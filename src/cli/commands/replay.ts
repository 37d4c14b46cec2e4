import { statSync } from "node:fs";
import { isMainThread } from "node:worker_threads";
import { ReadingFold } from "../../fold/reading-fold.js";
import {
  branchReplay,
  formatReplay,
  type LeafSummary,
  type ReplayReport,
  replaySession,
  summariesOf,
} from "../../fold/replay-report.js";
import { readSessionFile, type SessionLog } from "../../log/read-session.js";
import { type Command, FILES_JSON_HELP, FILES_JSON_OPTIONS, UsageError } from "../command.js";
import { type FileFailure, isFailure, settle } from "../file-outcome.js";
import { workersAvailable } from "../file-pool.js";
import { FoldWorker } from "../fold-worker.js";
import { runOverFiles } from "../folder-run.js";
import { expandInputs } from "../inputs.js";
import { loadUsable, resolveEntryId } from "../load-input.js";

/** One file's replay of every branch (or of one leaf); what a file-pool worker runs for a folder. */
export function replayFile(path: string, shown: string, leaf?: string): ReplayReport | FileFailure {
  return settle(shown, () => {
    // Folded while read; a file the host did not write in order is read again and folded whole.
    const fold = new ReadingFold(path);
    const read = loadUsable(path, shown, fold.readOptions());
    const exact = fold.matches(read.tree);
    const session = exact ? read : loadUsable(path, shown);
    const leaves = leaf === undefined ? undefined : [resolveEntryId(session.tree, leaf, shown)];
    return exact ? replaySession(shown, session, leaves, summariesOf(fold)) : replaySession(shown, session, leaves);
  });
}

/** Files from this size are folded on a second core while the first reads and checks them. */
const SPLIT_BYTES = 16 * 1024 * 1024;

/**
 * `replayFile`, for one large file in the main thread: a `FoldWorker` folds while this thread reads, checks and
 * builds the tree; whenever its answer cannot be used (a record the checks changed, a file not written in order),
 * the file is replayed here as above.
 */
export async function replayLargeFile(path: string, shown: string, leaf?: string): Promise<ReplayReport | FileFailure> {
  if (!isMainThread || !workersAvailable() || sizeOf(path) < SPLIT_BYTES) return replayFile(path, shown, leaf);
  return (await replaySplit(path, shown, leaf)) ?? replayFile(path, shown, leaf);
}

/** The replay of one file on two threads (see `replayLargeFile`), or null when the worker's fold cannot be used. */
export async function replaySplit(
  path: string,
  shown: string,
  leaf?: string,
): Promise<ReplayReport | FileFailure | null> {
  if (leaf === undefined) return replayTreeSplit(path, shown);
  const worker = new FoldWorker(path);
  try {
    const read = settle(shown, () => {
      const session = loadUsable(path, shown, { outline: true });
      const leaves = leaf === undefined ? session.tree.leaves() : [resolveEntryId(session.tree, leaf, shown)];
      return { session, leaves };
    });
    if (isFailure(read)) return read;
    const { session, leaves } = read;
    // The worker took every record as written: its entries are these only if the checks changed none.
    if (session.diagnostics.some((d) => d.code === "E_SCHEMA")) return null;
    const summaries = await worker.summaries(leaves);
    if (summaries === null) return null;
    const byLeaf = new Map(leaves.map((id, i) => [id, summaries[i] as LeafSummary]));
    return replaySession(shown, session, leaf === undefined ? undefined : leaves, {
      summaryAt: (id) => byLeaf.get(id) as LeafSummary,
    });
  } finally {
    worker.stop();
  }
}

/**
 * Every branch on two threads: the worker folds and finds the tree's shape from its own parent links, while this
 * thread only reads and checks the file (no tree is built here). Null, for the caller to replay on one thread, when
 * the checks changed a record, or the two reads did not see the same file.
 */
async function replayTreeSplit(path: string, shown: string): Promise<ReplayReport | FileFailure | null> {
  const worker = new FoldWorker(path);
  try {
    const answer = worker.tree();
    let log: SessionLog;
    try {
      log = readSessionFile(path, { outline: true });
    } catch {
      return null;
    }
    // Not a session the host can load: the one-thread replay says why, as it reads nothing more.
    if (log.unusable) return replayFile(path, shown);
    // A damaged file (a dropped line, a missing parent) is replayed on one thread, which counts its reader errors.
    if (log.diagnostics.some((d) => d.severity === "error") || hasMissingParent(log)) return null;
    const tree = await answer;
    const last = log.entries[log.entries.length - 1];
    if (tree === null || tree.entries !== log.entries.length || tree.bytes !== log.bytes) return null;
    if (tree.activeLeafId !== (last === undefined ? null : last.id)) return null;
    const active = tree.activeLeafId;
    const branches = tree.branches.map((b) =>
      branchReplay({ leafId: b.leafId, active: b.leafId === active, depth: b.depth, forkFromId: b.forkFromId }, b),
    );
    return { file: shown, activeLeafId: active, branches, readerErrors: 0 };
  } finally {
    worker.stop();
  }
}

function hasMissingParent(log: SessionLog): boolean {
  const ids = new Set<string>();
  for (const entry of log.entries) ids.add(entry.id);
  return log.entries.some((entry) => entry.parentId !== null && !ids.has(entry.parentId));
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

export const replayCommand: Command = {
  name: "replay",
  summary: "Replay every branch through the reducers and print each branch's folded state (never writes).",
  usage: "FILE|DIR... [--leaf ID] [--json | --ndjson]",
  description:
    "Folds each branch of the tree (root to leaf) through the kit's reducers and prints its state: the current request, model, denied scopes, file issues, verification revision and checks, recovery anchor and any stall. The active branch is marked *, others say where they fork from it. A folder stands for every *.jsonl below it. Exit 2 when a file is unreadable or not a Pi session file (the others are still replayed).",
  options: { ...FILES_JSON_OPTIONS, leaf: { type: "string" } },
  optionHelp: {
    "--leaf ID": "replay only the branch that ends at this entry (one file only; a unique prefix of the id is enough)",
    ...FILES_JSON_HELP,
  },
  examples: [
    "context-kit replay session.jsonl",
    "context-kit replay evidence-samples/branched-school-session.jsonl --leaf 00007065 --json",
    "context-kit replay ~/.pi/agent/sessions --ndjson",
  ],
  async run(context) {
    const leaf = context.values.leaf as string | undefined;
    const items = expandInputs(context.positionals, context.cwd);
    if (leaf !== undefined && items.length !== 1) throw new UsageError("--leaf needs exactly one session file");
    return runOverFiles<ReplayReport>(
      {
        name: "replay",
        task:
          leaf === undefined
            ? { module: import.meta.url, name: "replayFile", fn: replayLargeFile }
            : { module: import.meta.url, name: "replayFile", fn: (path, shown) => replayLargeFile(path, shown, leaf) },
        format: formatReplay,
        verdict: (r) => (r.readerErrors > 0 ? { exitCode: 0, label: "with errors" } : { exitCode: 0, label: "ok" }),
      },
      context,
      items,
    );
  },
};
