import { isMainThread, parentPort, type Worker, workerData } from "node:worker_threads";
import type { KitState, ViewState } from "../../reducers/state.js";
import { kitReducer } from "../fold/kit-reducer.js";
import { ReadingFold } from "../fold/reading-fold.js";
import { type LeafSummary, leafSummary } from "../fold/replay-report.js";
import { readSessionFile } from "../log/read-session.js";
import { startModuleWorker } from "./file-pool.js";

/**
 * One large file on two cores: a worker thread reads the file again and folds it (`ReadingFold`) while the caller
 * reads, checks and builds the tree; the caller then asks for what it needs of the states at the entries it found:
 * `replay` the summaries of its leaves, `check` the part of each state its views read (plain data, so a copy sent
 * between threads is the same to the projection). The worker reads
 * without schema checks: its entries are the caller's only when the caller's read took every entry as written (no
 * `E_SCHEMA` diagnostic), which the caller checks before it uses the answer.
 */

const TAG = "context-kit/fold-worker/v1";

interface FoldWorkerData {
  tag: typeof TAG;
  path: string;
}

/** The summaries of entries' states (`replay`), or the parts of them views read (`check`). */
export type FoldQuestion = { kind: "summaries" | "viewStates"; ids: readonly string[] };

/** The worker's answer: null when its fold is not exact for this file (the caller folds itself). */
export type FoldAnswer = LeafSummary[] | ViewState[] | null;

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

  /** The summaries of the states after `ids`, in order, or null. Ask once. */
  async summaries(ids: readonly string[]): Promise<LeafSummary[] | null> {
    this.worker.postMessage({ kind: "summaries", ids } satisfies FoldQuestion);
    return (await this.answer) as LeafSummary[] | null;
  }

  /** What views read of the states after `ids`, in order, or null. Ask once. */
  async viewStates(ids: readonly string[]): Promise<ViewState[] | null> {
    this.worker.postMessage({ kind: "viewStates", ids } satisfies FoldQuestion);
    return (await this.answer) as ViewState[] | null;
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
  port.once("message", (question: FoldQuestion) => {
    let answer: FoldAnswer = null;
    try {
      const states = fold;
      if (states !== null) {
        answer =
          question.kind === "summaries"
            ? question.ids.map((id) => leafSummary(states, id))
            : question.ids.map((id) => viewStateOf(states.stateAt(id)));
      }
    } catch {
      answer = null;
    }
    port.postMessage(answer);
    port.close();
  });
}

/** The part of a state the outgoing view reads. */
export function viewStateOf(state: KitState): ViewState {
  return {
    recovery: { anchorId: state.recovery.anchorId },
    denials: state.denials,
    fileIssues: state.fileIssues,
    inputs: state.inputs,
  };
}

if (!isMainThread && (workerData as FoldWorkerData | undefined)?.tag === TAG) serve(workerData as FoldWorkerData);
