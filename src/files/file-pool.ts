import { availableParallelism } from "node:os";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { InputError } from "./input-error.js";

/**
 * Maps session files over a pool of worker threads, one per core: every file is independent, so a folder audit is a
 * plain map. Memory stays bounded: each worker holds one file at a time and sends back only its (small) report;
 * results reach the caller in input order, as soon as every earlier file is done. A single file runs in-process.
 */

/** One file to process: its path, and the name the report shows for it. */
export interface FileItem {
  path: string;
  shown: string;
}

/**
 * What a worker runs on each file: the function `name` exported by the module at URL `module` (pass the command's
 * own `import.meta.url`). `fn` is the same function, for the in-process path. Its result must be structured-cloneable.
 */
export type FileTask<T> =
  | { module: string; name: string; indexed?: false; fn: (path: string, shown: string) => T | Promise<T> }
  | {
      module: string;
      name: string;
      /** `fn` takes the file's position in the items as well. */
      indexed: true;
      fn: (path: string, shown: string, index: number) => T | Promise<T>;
    };

export interface PoolOptions<T> {
  /** Worker threads; default `os.availableParallelism()`, never more than the files. */
  workers?: number;
  /** After each file, in completion order. */
  progress?: (done: number, total: number) => void;
  /** Each result in input order, as soon as it and all before it are done. */
  onResult?: (result: T, index: number) => void;
}

const TAG = "context-kit/file-pool/v1";

interface PoolWorkerData {
  tag: typeof TAG;
  module: string;
  name: string;
  indexed: boolean;
}

type Job = { index: number; path: string; shown: string };
type Reply =
  | { index: number; ok: true; value: unknown }
  | { index: number; ok: false; error: { name: string; message: string; code?: string; stack?: string } };

let sourceHooks: string | null = null;

/** True when this module runs from the TypeScript sources (under the test runner), not from `dist/`. */
export function runsFromSources(): boolean {
  return import.meta.url.endsWith(".ts");
}

/**
 * From the sources, workers and child processes need a module-loader hooks file (a URL) that compiles TypeScript;
 * the tests set one. The built package needs none.
 */
export function setSourceHooks(url: string | null): void {
  sourceHooks = url;
}

function registerHooksCode(hooks: string): string {
  return `import { register } from "node:module"; register(${JSON.stringify(hooks)});`;
}

/** Node options for a child process that runs one of the kit's modules. */
export function childExecArgv(): string[] {
  if (!runsFromSources()) return [];
  if (sourceHooks === null) {
    throw new Error("context-kit runs from its TypeScript sources: child processes need setSourceHooks() first");
  }
  return ["--import", `data:text/javascript,${encodeURIComponent(registerHooksCode(sourceHooks))}`];
}

/** Whether this process can start pool workers (always, once built). */
export function workersAvailable(): boolean {
  return !runsFromSources() || sourceHooks !== null;
}

function startWorker(task: FileTask<unknown>): Worker {
  const data: PoolWorkerData = { tag: TAG, module: task.module, name: task.name, indexed: task.indexed === true };
  return startModuleWorker(import.meta.url, data);
}

/** A worker thread that runs the module at URL `module` (compiled on the fly when run from the sources). */
export function startModuleWorker(module: string, workerData: unknown): Worker {
  if (!runsFromSources()) return new Worker(new URL(module), { workerData });
  const boot = `import("node:module").then(({ register }) => { register(${JSON.stringify(sourceHooks)}); return import(${JSON.stringify(module)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

function revive(error: Extract<Reply, { ok: false }>["error"]): Error {
  if (error.name === "InputError" && error.code) return new InputError(error.code, error.message);
  const revived = new Error(error.message);
  revived.name = error.name;
  if (error.stack) revived.stack = error.stack;
  return revived;
}

/** Runs `task` on every item; results come back in input order. */
export async function mapFiles<T>(
  task: FileTask<T>,
  items: readonly FileItem[],
  options: PoolOptions<T> = {},
): Promise<T[]> {
  const total = items.length;
  const count = Math.min(options.workers ?? availableParallelism(), total);
  if (count <= 1 || total <= 1 || !workersAvailable()) {
    const results: T[] = [];
    for (const [index, item] of items.entries()) {
      const value = await (task.indexed ? task.fn(item.path, item.shown, index) : task.fn(item.path, item.shown));
      results.push(value);
      options.progress?.(index + 1, total);
      options.onResult?.(value, index);
    }
    return results;
  }
  return new Promise<T[]>((resolvePool, rejectPool) => {
    const results = new Array<T>(total);
    const done = new Array<boolean>(total).fill(false);
    const workers: Worker[] = [];
    let next = 0;
    let finished = 0;
    let emitted = 0;
    let settled = false;

    const stop = (error?: Error) => {
      if (settled) return;
      settled = true;
      Promise.all(workers.map((w) => w.terminate())).then(
        () => (error ? rejectPool(error) : resolvePool(results)),
        () => (error ? rejectPool(error) : resolvePool(results)),
      );
    };
    const feed = (worker: Worker) => {
      if (next >= total) return;
      const index = next++;
      const item = items[index] as FileItem;
      worker.postMessage({ index, path: item.path, shown: item.shown } satisfies Job);
    };

    for (let i = 0; i < count; i++) {
      const worker = startWorker(task);
      workers.push(worker);
      worker.on("message", (reply: Reply) => {
        if (settled) return;
        if (!reply.ok) {
          stop(revive(reply.error));
          return;
        }
        results[reply.index] = reply.value as T;
        done[reply.index] = true;
        finished++;
        options.progress?.(finished, total);
        while (emitted < total && done[emitted]) {
          options.onResult?.(results[emitted] as T, emitted);
          emitted++;
        }
        if (finished === total) stop();
        else feed(worker);
      });
      worker.on("error", (error) => stop(error));
      worker.on("exit", (code) => {
        if (!settled) stop(new Error(`context-kit: a file-pool worker exited with code ${code}`));
      });
    }
    // Two jobs queued per worker: each has its next file while the main thread takes in its last result.
    for (let round = 0; round < 2; round++) for (const worker of workers) feed(worker);
  });
}

/** The worker side: load the task once, then answer one file at a time. */
async function serve(data: PoolWorkerData): Promise<void> {
  const port = parentPort;
  if (!port) return;
  const module = (await import(data.module)) as Record<string, unknown>;
  const fn = module[data.name];
  if (typeof fn !== "function") throw new Error(`context-kit: ${data.module} exports no function ${data.name}`);
  port.on("message", async (job: Job) => {
    let reply: Reply;
    try {
      reply = {
        index: job.index,
        ok: true,
        value: await (data.indexed ? fn(job.path, job.shown, job.index) : fn(job.path, job.shown)),
      };
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      const code = (e as { code?: unknown }).code;
      reply = {
        index: job.index,
        ok: false,
        error: {
          name: e instanceof InputError ? "InputError" : e.name,
          message: e.message,
          ...(typeof code === "string" ? { code } : {}),
          ...(e.stack ? { stack: e.stack } : {}),
        },
      };
    }
    port.postMessage(reply, reply.ok ? movable(reply.value) : []);
  });
}

/**
 * The byte arrays of a result (its own, or one level down) that own their whole buffer: moved to the main thread
 * instead of copied. A view into a shared or pooled buffer is copied, as the rest of the result is.
 */
function movable(value: unknown): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const take = (v: unknown) => {
    if (!ArrayBuffer.isView(v) || !(v.buffer instanceof ArrayBuffer) || out.includes(v.buffer)) return;
    if (v.byteOffset === 0 && v.byteLength === v.buffer.byteLength) out.push(v.buffer);
  };
  if (value === null || typeof value !== "object") return out;
  for (const v of Object.values(value)) {
    take(v);
    if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
      for (const w of Object.values(v)) take(w);
    }
  }
  return out;
}

// Not awaited: the task module imports this one, so this module must finish evaluating before the task can load.
if (!isMainThread && (workerData as PoolWorkerData | undefined)?.tag === TAG) {
  void serve(workerData as PoolWorkerData);
}
