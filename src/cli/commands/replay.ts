import { statSync } from "node:fs";
import { isMainThread } from "node:worker_threads";
import { workersAvailable } from "../../files/file-pool.js";
import { loadUsable } from "../../files/load-input.js";
import { branchShapesOfLinks } from "../../fold/branch-shapes.js";
import { kitReducer } from "../../fold/kit-reducer.js";
import { ReadingFold } from "../../fold/reading-fold.js";
import {
  branchReplay,
  formatReplay,
  leafSummary,
  type ReplayReport,
  replaySession,
  summariesOf,
} from "../../fold/replay-report.js";
import { readSessionFile, type SessionLog } from "../../log/read-session.js";
import { CheckWorker, sameRecords } from "../check-worker.js";
import { type Command, FILES_JSON_HELP, FILES_JSON_OPTIONS, UsageError } from "../command.js";
import { type FileFailure, settle } from "../file-outcome.js";
import { runOverFiles } from "../folder-run.js";
import { expandInputs, resolveEntryId } from "../inputs.js";

/** One file's replay of every branch (or of one leaf); what a file-pool worker runs for a folder. */
export function replayFile(path: string, shown: string, leaf?: string): ReplayReport | FileFailure {
  return settle(shown, () => {
    // Folded while read; a file the host did not write in order is read again and folded whole.
    const fold = new ReadingFold(path);
    const read = loadUsable(path, shown, fold.readOptions());
    const exact = fold.matches(read.tree);
    const session = exact ? read : loadUsable(path, shown);
    const leaves = leaf === undefined ? undefined : [resolveEntryId(session.tree.byId, leaf, shown)];
    return exact ? replaySession(shown, session, leaves, summariesOf(fold)) : replaySession(shown, session, leaves);
  });
}

/** Files from this size are replayed on two cores in the main thread. */
const SPLIT_BYTES = 16 * 1024 * 1024;

/**
 * `replayFile`, for one large file in the main thread: a `CheckWorker` reads and checks the file while this thread
 * folds it as it reads (without checks); whenever the fold cannot be used (a record the checks would change or drop,
 * a missing parent, a file not written in order, the two reads not the same file), the file is replayed as above.
 */
export async function replayLargeFile(path: string, shown: string, leaf?: string): Promise<ReplayReport | FileFailure> {
  if (!isMainThread || !workersAvailable() || sizeOf(path) < SPLIT_BYTES) return replayFile(path, shown, leaf);
  return (await replaySplit(path, shown, leaf)) ?? replayFile(path, shown, leaf);
}

/** The replay of one file on two threads (see `replayLargeFile`), or null when the fold cannot be used. */
export async function replaySplit(
  path: string,
  shown: string,
  leaf?: string,
): Promise<ReplayReport | FileFailure | null> {
  const checker = new CheckWorker(path);
  try {
    const fold = new ReadingFold(path, kitReducer, { validate: false });
    let log: SessionLog;
    try {
      log = readSessionFile(path, fold.readOptions());
    } catch {
      return null;
    }
    // Not a session the host can load: the one-thread replay says why, as it reads nothing more.
    if (log.unusable) return replayFile(path, shown, leaf);
    if (!fold.matchesItself()) return null;
    const checked = await checker.result();
    if (checked === null || checked.unusable || !sameRecords(checked, log)) return null;
    // A damaged file (a dropped line, a missing parent) is replayed on one thread, which counts its reader errors.
    if (checked.missingParent || checked.diagnostics.some((d) => d.severity === "error")) return null;
    const links = fold.treeLinks();
    const only = leaf === undefined ? undefined : [resolveEntryId(links, leaf, shown)];
    const { activeLeafId, branches } = branchShapesOfLinks(links, only);
    const replays = branches.map(({ leafId, depth, forkFromId }) =>
      branchReplay({ leafId, active: leafId === activeLeafId, depth, forkFromId }, leafSummary(fold, leafId)),
    );
    return { file: shown, activeLeafId, branches: replays, readerErrors: 0 };
  } finally {
    checker.stop();
  }
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
