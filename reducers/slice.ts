import type { KitEvent } from "./contract/events.js";

export type EventKind = KitEvent["kind"];
export type EventOf<K extends EventKind> = Extract<KitEvent, { kind: K }>;

/**
 * One part of the kit's state and the events that change it: a handler for each event kind it reads, which the fold
 * calls with the part and the event; the fold does not call it for any other kind. A handler returns the same object
 * when the event changes nothing. `requestId` is the request the event belongs to (the request slice after it).
 */
export interface Slice<S> {
  initial(): S;
  on: { readonly [K in EventKind]?: (state: S, event: EventOf<K>, requestId: string | null) => S };
}

/** For a `switch` that names every case: fails to compile when one is missing. */
export function exhaustive(value: never): never {
  throw new Error(`unhandled case ${JSON.stringify(value)}`);
}
