import { writeSync } from "node:fs";
import { isMainThread, parentPort, type Worker, workerData } from "node:worker_threads";
import { createGzip } from "node:zlib";
import { startModuleWorker, workersAvailable } from "../files/file-pool.js";

/**
 * Gzip (level 1) of the bytes written, as base64 text handed on as it is made: the same text however the bytes are
 * cut, since deflate without a flush compresses a stream the same whatever its pieces, and base64 of whole 3-byte
 * groups concatenates.
 */
export class GzipBase64 {
  private readonly gzip = createGzip({ level: 1 });
  private carry: Buffer | null = null;
  private readonly finished: Promise<void>;

  constructor(put: (text: string) => void) {
    this.gzip.on("data", (chunk: Buffer) => {
      const all: Buffer = this.carry === null ? chunk : Buffer.concat([this.carry, chunk]);
      const whole = all.length - (all.length % 3);
      if (whole > 0) put(all.subarray(0, whole).toString("base64"));
      this.carry = whole < all.length ? Buffer.from(all.subarray(whole)) : null;
    });
    this.finished = new Promise<void>((resolve, reject) => {
      this.gzip.once("end", () => {
        if (this.carry !== null) put(this.carry.toString("base64"));
        resolve();
      });
      this.gzip.once("error", reject);
    });
    this.finished.catch(() => {});
  }

  /** False when gzip holds enough for now (`drained` says when it has taken it in). */
  write(bytes: Uint8Array): boolean {
    return this.gzip.write(bytes);
  }

  drained(): Promise<void> {
    return new Promise((resolve) => this.gzip.once("drain", resolve));
  }

  end(): Promise<void> {
    this.gzip.end();
    return this.finished;
  }
}

const TAG = "context-kit/gzip-base64/v1";

interface GzipWorkerData {
  tag: typeof TAG;
  fd: number;
}

/**
 * `GzipBase64` whose base64 is written to the open file `fd` at its current end, on a worker thread when this
 * process can start one: gzip then runs beside the thread that makes the bytes instead of taking turns with it.
 * `end` resolves with the bytes written.
 */
export class GzipToFile {
  private readonly worker: Worker | null;
  private readonly local: GzipBase64 | null;
  /** Whether gzip runs on a worker thread. */
  readonly threaded: boolean;
  private readonly done: Promise<number>;
  private written = 0;

  constructor(fd: number) {
    this.threaded = isMainThread && workersAvailable();
    if (this.threaded) {
      this.worker = startModuleWorker(import.meta.url, { tag: TAG, fd } satisfies GzipWorkerData);
      this.local = null;
      this.done = new Promise((resolve, reject) => {
        this.worker?.once("message", (bytes: number) => resolve(bytes));
        this.worker?.once("error", reject);
        this.worker?.once("exit", (code) => reject(new Error(`context-kit: the gzip worker exited with code ${code}`)));
      });
      this.done.catch(() => {});
    } else {
      this.worker = null;
      this.local = new GzipBase64((text) => {
        this.written += writeText(fd, text);
      });
      this.done = Promise.resolve(0);
    }
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.local) {
      if (!this.local.write(bytes)) await this.local.drained();
      return;
    }
    this.worker?.postMessage(bytes);
  }

  async end(): Promise<number> {
    if (this.local) {
      await this.local.end();
      return this.written;
    }
    this.worker?.postMessage(null);
    try {
      return await this.done;
    } finally {
      void this.worker?.terminate();
    }
  }

  /** Stops a worker that will not be ended (the page failed): once it has, nothing more is written to the file. */
  async abandon(): Promise<void> {
    await this.worker?.terminate();
  }
}

/** Writes `text` as UTF-8 at the file's current position; returns the bytes written. */
export function writeText(fd: number, text: string): number {
  const buffer = Buffer.from(text, "utf8");
  let done = 0;
  while (done < buffer.length) done += writeSync(fd, buffer, done);
  return buffer.length;
}

if (!isMainThread && (workerData as GzipWorkerData | undefined)?.tag === TAG) {
  const { fd } = workerData as GzipWorkerData;
  let written = 0;
  const gzip = new GzipBase64((text) => {
    written += writeText(fd, text);
  });
  parentPort?.on("message", (bytes: Uint8Array | null) => {
    // Held by gzip until it takes it in: the caller has sent everything already or soon will.
    if (bytes !== null) {
      gzip.write(bytes);
      return;
    }
    gzip.end().then(
      () => parentPort?.postMessage(written),
      (error: unknown) => {
        throw error;
      },
    );
  });
}
