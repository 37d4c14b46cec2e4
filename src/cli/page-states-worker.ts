import { isMainThread, parentPort, type Worker, workerData } from "node:worker_threads";
import type { KitState } from "../../reducers/state.js";
import type { BranchFold } from "../fold/branch-fold.js";
import { branchShapes } from "../fold/branch-shapes.js";
import { kitReducer } from "../fold/kit-reducer.js";
import { ReadingFold } from "../fold/reading-fold.js";
import { foldTree } from "../fold/session-fold.js";
import type { SessionEntry } from "../log/entry-types.js";
import { type RecordPosition, readSessionFile } from "../log/read-session.js";
import type { KnownStates } from "../report/page-model.js";
import { type StateTable, StateTableBuilder } from "../report/state-table.js";
import type { LoadedSession } from "../session.js";
import { startModuleWorker } from "./file-pool.js";

/**
 * The report of one large file on two cores: a worker thread reads the file again, folds it while reading
 * (`ReadingFold`) and builds the page's state table, while the caller reads, checks and builds the rest of the page.
 * Like the replay's fold worker, it reads without schema checks: its answer is the caller's only when the caller's
 * read took every entry as written (no `E_SCHEMA` diagnostic) and saw the same file, which the caller checks.
 */

const TAG = "context-kit/report-states/v1";

interface StatesWorkerData {
  tag: typeof TAG;
  path: string;
}

/** The states of the page, as `buildPageModel` would find them folding the same entries in file order. */
export interface PageStates {
  /** What the worker's read saw, for the caller to compare with its own. */
  entries: number;
  bytes: number;
  table: StateTable;
  /** The state at each leaf (entries without children), in file order. */
  leaves: [string, KitState][];
}

export class PageStatesWorker {
  private readonly worker: Worker;
  /** Null when the worker's fold is not exact for this file, or it failed: the caller folds itself. */
  readonly answer: Promise<PageStates | null>;

  constructor(path: string) {
    this.worker = startModuleWorker(import.meta.url, { tag: TAG, path } satisfies StatesWorkerData);
    this.answer = new Promise<PageStates | null>((resolve) => {
      this.worker.once("message", resolve);
      this.worker.once("error", () => resolve(null));
      this.worker.once("exit", () => resolve(null));
    });
  }

  stop(): void {
    void this.worker.terminate();
  }
}

/**
 * Reads and folds `path`, interning each entry's state in file order as `buildPageModel` does (a parent always
 * comes first in a file the fold is exact for, so each parent's state index is known). Null when not exact.
 */
export function pageStatesOf(path: string): PageStates | null {
  const fold = new ReadingFold(path, kitReducer, { validate: false });
  const links = fold.parentLinks();
  const options = fold.readOptions();
  const take = options.onEntry as (entry: SessionEntry, at: RecordPosition, bytes: number) => void;
  const states = new StateTableBuilder(kitReducer.initialState());
  const indexOf = new Map<string, number>();
  const stateOf: number[] = [];
  let broken = false;
  options.onEntry = (entry, at, bytes) => {
    if (broken) return;
    const before = links.size;
    take(entry, at, bytes);
    // Not taken: the fold is no longer exact (an id used twice, a line that is not as written).
    if (links.size !== before + 1) {
      broken = true;
      return;
    }
    const i = stateOf.length;
    const parent = links.get(entry.id) as string | null;
    const stateIndex = states.intern(fold.stateAt(entry.id));
    stateOf.push(stateIndex);
    indexOf.set(entry.id, i);
    states.record(i, stateIndex, parent === null ? 0 : (stateOf[indexOf.get(parent) as number] as number));
  };
  const log = readSessionFile(path, options);
  if (broken || !fold.matchesItself()) return null;
  const { branches } = branchShapes(links);
  return {
    entries: links.size,
    bytes: log.bytes,
    table: states.table,
    leaves: branches.map((b) => [b.leafId, fold.stateAt(b.leafId)]),
  };
}

/** Whether the reader took every entry as written (a usable session, no record changed by the checks). */
export function takenAsWritten(session: LoadedSession): boolean {
  return !session.log.unusable && !session.log.diagnostics.some((d) => d.code === "E_SCHEMA");
}

/**
 * The page's states from a worker's answer, when they are those of `session`: a session taken as written, from a
 * read of the same file. Leaves are read from the answer; any other state (a recorded request's leaf) is folded here.
 */
export function knownStatesFor(session: LoadedSession, states: PageStates | null): KnownStates | undefined {
  const { log, tree } = session;
  if (states === null || !takenAsWritten(session)) return undefined;
  if (states.entries !== tree.size || states.entries !== log.entries.length || states.bytes !== log.bytes) {
    return undefined;
  }
  const leaves = new Map(states.leaves);
  let fold: BranchFold | null = null;
  return {
    table: states.table,
    source: {
      stateAt: (id) => {
        const leaf = id === null ? undefined : leaves.get(id);
        if (leaf !== undefined) return leaf;
        fold ??= foldTree(tree);
        return fold.stateAt(id);
      },
    },
  };
}

function serve(data: StatesWorkerData): void {
  const port = parentPort;
  if (!port) return;
  let answer: PageStates | null = null;
  try {
    answer = pageStatesOf(data.path);
  } catch {
    answer = null;
  }
  port.postMessage(answer);
  port.close();
}

if (!isMainThread && (workerData as StatesWorkerData | undefined)?.tag === TAG) serve(workerData as StatesWorkerData);
