import { isMainThread, parentPort, type Worker, workerData } from "node:worker_threads";
import { type BranchShape, branchShapesOfLinks } from "../fold/branch-shapes.js";
import { kitReducer } from "../fold/kit-reducer.js";
import { ReadingFold } from "../fold/reading-fold.js";
import { type LeafSummary, leafSummary } from "../fold/replay-report.js";
import { readSessionFile } from "../log/read-session.js";
import { startModuleWorker } from "./file-pool.js";

/**
 * One large file on two cores: a worker thread reads the file again and folds it (`ReadingFold`) while the caller
 * reads and checks it; the caller then asks for the summaries of the leaves it found, or for every branch with its
 * place in the tree (built from the worker's own parent links). The worker reads without schema checks: its entries
 * are the caller's only when the caller's read took every entry as written (no `E_SCHEMA` diagnostic) and the two
 * reads saw the same file, which the caller checks before it uses the answer.
 */

const TAG = "context-kit/fold-worker/v1";

interface FoldWorkerData {
  tag: typeof TAG;
  path: string;
}

/** The worker's answer to a list of leaves: null when its fold is not exact for this file (the caller folds itself). */
export type FoldAnswer = LeafSummary[] | null;

/** Every branch of the file as the worker read it: its tree's shape and each leaf's summary. */
export interface TreeAnswer {
  /** What the worker's read saw, for the caller to compare with its own. */
  entries: number;
  bytes: number;
  activeLeafId: string | null;
  branches: (BranchShape & LeafSummary)[];
}

/** What the caller asks: the summaries of these leaves, or (`ALL`) every branch. */
type Ask = readonly string[] | typeof ALL;
const ALL = "all";

export class FoldWorker {
  private readonly worker: Worker;
  private readonly answer: Promise<unknown>;
  private resolve: (answer: unknown) => void = () => {};

  constructor(path: string) {
    this.worker = startModuleWorker(import.meta.url, { tag: TAG, path } satisfies FoldWorkerData);
    this.answer = new Promise<unknown>((resolve) => {
      this.resolve = resolve;
    });
    this.worker.on("message", (reply: unknown) => this.resolve(reply));
    // A worker that fails or exits unasked is no answer: the caller folds itself.
    this.worker.on("error", () => this.resolve(null));
    this.worker.on("exit", () => this.resolve(null));
  }

  /** The summaries of `leaves`, in order, or null. Ask once per worker (this or `tree`). */
  summaries(leaves: readonly string[]): Promise<FoldAnswer> {
    this.worker.postMessage(leaves satisfies Ask);
    return this.answer as Promise<FoldAnswer>;
  }

  /** Every branch, or null; asked at once, answered as soon as the worker has read the file. */
  tree(): Promise<TreeAnswer | null> {
    this.worker.postMessage(ALL satisfies Ask);
    return this.answer as Promise<TreeAnswer | null>;
  }

  stop(): void {
    void this.worker.terminate();
  }
}

function treeAnswer(fold: ReadingFold, bytes: number): TreeAnswer {
  const links = fold.parentLinks();
  const { activeLeafId, branches } = branchShapesOfLinks(links);
  return {
    entries: links.size,
    bytes,
    activeLeafId,
    branches: branches.map((shape) => ({ ...shape, ...leafSummary(fold, shape.leafId) })),
  };
}

function serve(data: FoldWorkerData): void {
  const port = parentPort;
  if (!port) return;
  let fold: ReadingFold | null = new ReadingFold(data.path, kitReducer, { validate: false });
  let bytes = 0;
  try {
    bytes = readSessionFile(data.path, fold.readOptions()).bytes;
    if (!fold.matchesItself()) fold = null;
  } catch {
    fold = null;
  }
  port.once("message", (ask: Ask) => {
    let answer: FoldAnswer | TreeAnswer = null;
    try {
      if (fold !== null) {
        answer = ask === ALL ? treeAnswer(fold, bytes) : ask.map((leaf) => leafSummary(fold as ReadingFold, leaf));
      }
    } catch {
      answer = null;
    }
    port.postMessage(answer);
    port.close();
  });
}

if (!isMainThread && (workerData as FoldWorkerData | undefined)?.tag === TAG) serve(workerData as FoldWorkerData);
