import { isMainThread, parentPort, type Worker, workerData } from "node:worker_threads";
import { startModuleWorker } from "../files/file-pool.js";
import type { Diagnostic } from "../log/diagnostics.js";
import { readSessionFile, type SessionLog } from "../log/read-session.js";

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
  /** The reader's diagnostics, the checks' included. */
  diagnostics: Diagnostic[];
  /** An entry whose parent is in no line of the file. */
  missingParent: boolean;
  entries: number;
  bytes: number;
  lastId: string | null;
}

/**
 * Whether a read of the same file made without checks (`validate: false`) took the same records as the checked one:
 * the same file (entries, bytes, last id) and no diagnostic but those the checks add to a record kept as written
 * (`W_UNKNOWN_TYPE`). A record the checks reject is reported (`E_SCHEMA`) and may be replaced: then they differ.
 */
export function sameRecords(checked: CheckAnswer, log: SessionLog): boolean {
  const last = log.entries[log.entries.length - 1];
  if (checked.entries !== log.entries.length || checked.bytes !== log.bytes) return false;
  if (checked.lastId !== (last === undefined ? null : last.id)) return false;
  const own = log.diagnostics;
  const added = checked.diagnostics.filter((d) => d.code !== "W_UNKNOWN_TYPE");
  return added.length === own.length && added.every((d, i) => d.code === own[i]?.code && d.line === own[i]?.line);
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
    const last = log.entries[log.entries.length - 1];
    return {
      unusable: log.unusable,
      diagnostics: log.diagnostics,
      missingParent: log.entries.some((e) => e.parentId !== null && !ids.has(e.parentId)),
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
