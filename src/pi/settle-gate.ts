/**
 * The host runs extension handlers on an async queue it does not await, so a new prompt can begin while the last
 * run's `agent_end` handler is still queued. The gate opens when that handler has finished (or after a bound), so
 * decisions made at the start of a prompt see the session as the last run left it.
 */
export class SettleGate {
  private pending: Promise<void> | null = null;
  private release: (() => void) | null = null;

  /** A run is in progress (called from hooks the host awaits inside the run). */
  close(): void {
    if (this.pending) return;
    this.pending = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  open(): void {
    this.release?.();
    this.pending = null;
    this.release = null;
  }

  get isOpen(): boolean {
    return this.pending === null;
  }

  /** Resolves when the gate is open, however long that takes. */
  whenOpen(): Promise<void> {
    return this.pending ?? Promise.resolve();
  }

  async wait(maxMs: number): Promise<void> {
    if (!this.pending) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.pending, new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs)))]);
    clearTimeout(timer);
  }
}
