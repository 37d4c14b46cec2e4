import { isMainThread, parentPort, type Worker, workerData } from "node:worker_threads";
import { readSessionFile } from "../log/read-session.js";
import { startModuleWorker } from "./file-pool.js";

/**
 * One large file on two cores: a worker thread reads and checks the file (every record against `schemas/`, the
 * parent links) while the caller folds its own read of it, taken without checks. The caller's fold stands only when
 * the checks changed no record and found nothing wrong, and both reads saw the same file.
 */

const TAG = "context-kit/check-worker/v1";

interface CheckWorkerData {
  tag: typeof TAG;
  path: string;
}

/** What the checked read saw. */
export interface CheckAnswer {
  /** Not a session file the host can load. */
  unusable: boolean;
  /** Every record taken as written: no reader error (a dropped or changed line) and no missing parent. */
  clean: boolean;
  entries: number;
  bytes: number;
  lastId: string | null;
}

export class CheckWorker {
  private readonly worker: Worker;
  private readonly answer: Promise<CheckAnswer | null>;

  constructor(path: string) {
    this.worker = startModuleWorker(import.meta.url, { tag: TAG, path } satisfies CheckWorkerData);
    this.answer = new Promise((resolve) => {
      this.worker.once("message", (reply: CheckAnswer | null) => resolve(reply));
      // A worker that fails or exits unasked is no answer: the caller reads on one thread.
      this.worker.once("error", () => resolve(null));
      this.worker.once("exit", () => resolve(null));
    });
  }

  /** The checked read's outcome, or null when the worker could not read the file. */
  result(): Promise<CheckAnswer | null> {
    return this.answer;
  }

  stop(): void {
    void this.worker.terminate();
  }
}

function check(path: string): CheckAnswer | null {
  try {
    const log = readSessionFile(path, { outline: true });
    const ids = new Set<string>();
    for (const entry of log.entries) ids.add(entry.id);
    const missingParent = log.entries.some((e) => e.parentId !== null && !ids.has(e.parentId));
    const errors = log.diagnostics.some((d) => d.severity === "error");
    const last = log.entries[log.entries.length - 1];
    return {
      unusable: log.unusable,
      clean: !errors && !missingParent,
      entries: log.entries.length,
      bytes: log.bytes,
      lastId: last === undefined ? null : last.id,
    };
  } catch {
    return null;
  }
}

if (!isMainThread && (workerData as CheckWorkerData | undefined)?.tag === TAG) {
  parentPort?.postMessage(check((workerData as CheckWorkerData).path));
}
