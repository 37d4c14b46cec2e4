import { isMainThread, parentPort, type Worker, workerData } from "node:worker_threads";
import { kitReducer } from "../fold/kit-reducer.js";
import { ReadingFold } from "../fold/reading-fold.js";
import { type LeafSummary, leafSummary } from "../fold/replay-report.js";
import { readSessionFile } from "../log/read-session.js";
import { startModuleWorker } from "./file-pool.js";

/**
 * One large file on two cores: a worker thread reads the file again and folds it (`ReadingFold`) while the caller
 * reads, checks and builds the tree; the caller then asks for the summaries of the leaves it found. The worker reads
 * without schema checks: its entries are the caller's only when the caller's read took every entry as written (no
 * `E_SCHEMA` diagnostic), which the caller checks before it uses the answer.
 */

const TAG = "context-kit/fold-worker/v1";

interface FoldWorkerData {
  tag: typeof TAG;
  path: string;
}

/** The worker's answer: null when its fold is not exact for this file (the caller folds itself). */
export type FoldAnswer = LeafSummary[] | null;

export class FoldWorker {
  private readonly worker: Worker;
  private readonly answer: Promise<FoldAnswer>;
  private resolve: (answer: FoldAnswer) => void = () => {};

  constructor(path: string) {
    this.worker = startModuleWorker(import.meta.url, { tag: TAG, path } satisfies FoldWorkerData);
    this.answer = new Promise<FoldAnswer>((resolve) => {
      this.resolve = resolve;
    });
    this.worker.on("message", (reply: FoldAnswer) => this.resolve(reply));
    // A worker that fails or exits unasked is no answer: the caller folds itself.
    this.worker.on("error", () => this.resolve(null));
    this.worker.on("exit", () => this.resolve(null));
  }

  /** The summaries of `leaves`, in order, or null. */
  summaries(leaves: readonly string[]): Promise<FoldAnswer> {
    this.worker.postMessage(leaves);
    return this.answer;
  }

  stop(): void {
    void this.worker.terminate();
  }
}

function serve(data: FoldWorkerData): void {
  const port = parentPort;
  if (!port) return;
  let fold: ReadingFold | null = new ReadingFold(data.path, kitReducer, { validate: false });
  try {
    readSessionFile(data.path, fold.readOptions());
    if (!fold.matchesItself()) fold = null;
  } catch {
    fold = null;
  }
  port.once("message", (leaves: string[]) => {
    let answer: FoldAnswer = null;
    try {
      if (fold !== null) answer = leaves.map((leaf) => leafSummary(fold as ReadingFold, leaf));
    } catch {
      answer = null;
    }
    port.postMessage(answer);
    port.close();
  });
}

if (!isMainThread && (workerData as FoldWorkerData | undefined)?.tag === TAG) serve(workerData as FoldWorkerData);
