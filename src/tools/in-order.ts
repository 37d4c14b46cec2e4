import { throwIfAborted } from "./tool-types.js";

/** Files read ahead of the one being searched or shown (the reads overlap in the thread pool). */
export const READ_AHEAD = 8;

/**
 * Maps `items` through `load` with up to `window` loads in flight, handing results to `consume` in the items' order;
 * `false` from `consume` stops (loads already started finish unread).
 */
export async function inOrder<T, R>(
  items: readonly T[],
  load: (item: T) => Promise<R>,
  consume: (item: T, result: R) => boolean,
  window: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const pending: Promise<R>[] = [];
  let next = 0;
  for (let i = 0; i < items.length; i++) {
    while (next < items.length && next < i + window) {
      const loading = load(items[next++] as T);
      // Handled here so a failure ahead of the reader is never reported as unhandled; awaiting it still throws.
      loading.catch(() => {});
      pending.push(loading);
    }
    throwIfAborted(signal);
    const result = await (pending.shift() as Promise<R>);
    if (!consume(items[i] as T, result)) break;
  }
}
