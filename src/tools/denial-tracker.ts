export interface DenialNote {
  /** Denials in this scope so far, this one included. */
  count: number;
  /** This is the first denial in the scope: marker guidance is shown. */
  first: boolean;
}

/**
 * Counts denials per key: the rule that fired, which names its canonical target (see `denialKey`). The session wiring
 * backs it by folded session state.
 */
export interface DenialTracker {
  note(key: string): DenialNote;
}

export interface MemoryDenialTracker extends DenialTracker {
  count(key: string): number;
  /** Drops a key, as the session state does when the policy allows it again. */
  forget(key: string): void;
}

export function createMemoryDenialTracker(): MemoryDenialTracker {
  const counts = new Map<string, number>();
  return {
    note(key) {
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      return { count, first: count === 1 };
    },
    count: (key) => counts.get(key) ?? 0,
    forget: (key) => {
      counts.delete(key);
    },
  };
}
