import { writeSync } from "node:fs";
import { isMainThread, parentPort, type Worker, workerData } from "node:worker_threads";
import { createGzip } from "node:zlib";
import { startModuleWorker, workersAvailable } from "../files/file-pool.js";

/**
 * Gzip (level 1) of the bytes written, as base64 text handed on as it is made: the same text however the bytes are
 * cut, since deflate without a flush compresses a stream the same whatever its pieces, and base64 of whole 3-byte
 * groups concatenates.
 */
class GzipBase64 {
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

  /** False when gzip holds enough for now (`drained` says when it has taken it in); `taken` once it has these. */
  write(bytes: Uint8Array, taken?: () => void): boolean {
    return this.gzip.write(bytes, taken);
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

/** What the worker is sent: bytes to gzip, "release" (write what is held), or null (the end). */
type GzipMessage = Uint8Array | "release" | null;

/** What the worker answers: bytes gzip has taken in, or, at the end, the bytes written to the file. */
type GzipReply = { taken: number } | { written: number };

/**
 * Bytes sent to the worker and not yet taken in by its gzip before `write` waits: more than the 100k file's whole
 * model (16 MB of JSON), whose views are then computed while it is compressed; a larger model waits for gzip rather
 * than grow the worker's queue without end.
 */
const IN_FLIGHT_BYTES = 32 << 20;

/** Text for a file, held until `release` (what comes before it is not written yet), then written as it comes. */
class HeldText {
  private held: string[] | null = [];
  written = 0;

  constructor(private readonly fd: number) {}

  put(text: string): void {
    if (this.held) this.held.push(text);
    else this.written += writeText(this.fd, text);
  }

  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const text of held) this.written += writeText(this.fd, text);
  }
}

/**
 * `GzipBase64` whose base64 goes to the open file `fd` at its current position once `release` is called (the page
 * before it is written by then), on a worker thread when this process can start one: gzip then runs beside the
 * thread that makes the bytes instead of taking turns with it. `end` resolves with the bytes written.
 */
export class GzipToFile {
  private readonly worker: Worker | null;
  private readonly local: { gzip: GzipBase64; out: HeldText } | null;
  /** Whether gzip runs on a worker thread. */
  readonly threaded: boolean;
  private readonly done: Promise<number>;
  private inFlight = 0;
  private taken: (() => void) | null = null;

  /** `inFlightBytes`: bytes sent and not yet taken in by the worker's gzip before `write` waits. */
  constructor(
    fd: number,
    private readonly inFlightBytes = IN_FLIGHT_BYTES,
  ) {
    this.threaded = isMainThread && workersAvailable();
    if (this.threaded) {
      const worker = startModuleWorker(import.meta.url, { tag: TAG, fd } satisfies GzipWorkerData);
      this.worker = worker;
      this.local = null;
      this.done = new Promise((resolve, reject) => {
        worker.on("message", (reply: GzipReply) => {
          if ("written" in reply) resolve(reply.written);
          else {
            this.inFlight -= reply.taken;
            this.taken?.();
          }
        });
        worker.once("error", reject);
        worker.once("exit", (code) => reject(new Error(`context-kit: the gzip worker exited with code ${code}`)));
      });
      this.done.catch(() => {});
    } else {
      const out = new HeldText(fd);
      this.worker = null;
      this.local = { gzip: new GzipBase64((text) => out.put(text)), out };
      this.done = Promise.resolve(0);
    }
  }

  /** Gzips `bytes`, which are its own from then on (a buffer of their own moves to the worker thread). */
  async write(bytes: Uint8Array): Promise<void> {
    if (this.local) {
      if (!this.local.gzip.write(bytes)) await this.local.gzip.drained();
      return;
    }
    this.inFlight += bytes.byteLength;
    this.send(bytes);
    while (this.inFlight > this.inFlightBytes) {
      await Promise.race([new Promise<void>((resolve) => (this.taken = resolve)), this.done]);
    }
  }

  release(): void {
    if (this.local) this.local.out.release();
    else this.send("release");
  }

  async end(): Promise<number> {
    if (this.local) {
      await this.local.gzip.end();
      return this.local.out.written;
    }
    this.send(null);
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

  /** Bytes that own their whole buffer move to the worker rather than being copied (a pooled one is copied). */
  private send(message: GzipMessage): void {
    const own =
      message instanceof Uint8Array && message.byteOffset === 0 && message.byteLength === message.buffer.byteLength;
    this.worker?.postMessage(message, own ? [message.buffer as ArrayBuffer] : []);
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
  const out = new HeldText((workerData as GzipWorkerData).fd);
  const gzip = new GzipBase64((text) => out.put(text));
  parentPort?.on("message", (message: GzipMessage) => {
    if (message === "release") out.release();
    // Held by gzip until it takes it in; the caller waits once it has sent enough that is not taken yet.
    else if (message !== null) {
      const taken = message.byteLength;
      gzip.write(message, () => parentPort?.postMessage({ taken } satisfies GzipReply));
    } else {
      gzip.end().then(
        () => parentPort?.postMessage({ written: out.written } satisfies GzipReply),
        (error: unknown) => {
          throw error;
        },
      );
    }
  });
}
