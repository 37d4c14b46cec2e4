export interface DenialNote {
  /** Denials in this scope so far, this one included. */
  count: number;
  /** This is the first denial in the scope: marker guidance is shown. */
  first: boolean;
}

/** Counts denials per canonical scope. The session wiring backs it by folded session state. */
export interface DenialTracker {
  note(scope: string): DenialNote;
}

export interface MemoryDenialTracker extends DenialTracker {
  count(scope: string): number;
  /** Drops a scope, as the session state does when the policy allows it again. */
  forget(scope: string): void;
}

export function createMemoryDenialTracker(): MemoryDenialTracker {
  const counts = new Map<string, number>();
  return {
    note(scope) {
      const count = (counts.get(scope) ?? 0) + 1;
      counts.set(scope, count);
      return { count, first: count === 1 };
    },
    count: (scope) => counts.get(scope) ?? 0,
    forget: (scope) => {
      counts.delete(scope);
    },
  };
}
