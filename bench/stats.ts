import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Median of the samples (the mean of the middle two for an even count). */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The p-th percentile (0..100), nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

export interface Summary {
  /** Median, in milliseconds. */
  medianMs: number;
  p99Ms: number;
  samples: number;
}

export function summarize(samplesMs: readonly number[]): Summary {
  return { medianMs: median(samplesMs), p99Ms: percentile(samplesMs, 99), samples: samplesMs.length };
}

let collector: (() => void) | null | undefined;

/**
 * A full garbage collection between measurements, so that one side does not pay for the other's garbage. Uses
 * `global.gc` when node runs with --expose-gc, else enables it at run time; a no-op when neither works.
 */
export function collectGarbage(): void {
  if (collector === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === "function") collector = exposed;
    else {
      try {
        setFlagsFromString("--expose-gc");
        collector = runInNewContext("gc") as () => void;
      } catch {
        collector = null;
      }
    }
  }
  collector?.();
}

/** Milliseconds taken by `fn`, and its result. */
export function timed<T>(fn: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = fn();
  return { ms: performance.now() - start, value };
}

/** A ratio that is a finite number even when the denominator rounds to zero. */
export function ratio(kit: number, host: number): number {
  if (!Number.isFinite(kit) || !Number.isFinite(host)) return Number.NaN;
  return kit / Math.max(host, 1e-9);
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "-";
  if (ms < 1) return `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 1)} µs`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

/** 1000 → "1k", 100000 → "100k". */
export function countLabel(n: number): string {
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}k`;
  return String(n);
}
