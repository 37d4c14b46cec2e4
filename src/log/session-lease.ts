import { readFileSync, unlinkSync, writeFileSync } from "node:fs";

/** Who holds a session: the process of a running host with the kit loaded. */
export interface SessionLease {
  pid: number;
  since: string;
}

export function leasePath(sessionFile: string): string {
  return `${sessionFile}.context-kit.lease`;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lease on a session file for this process (a later holder of the same file replaces it). */
export function acquireLease(sessionFile: string, now = new Date()): void {
  const lease: SessionLease = { pid: process.pid, since: now.toISOString() };
  writeFileSync(leasePath(sessionFile), `${JSON.stringify(lease)}\n`);
}

/** Removes the lease if this process still holds it. */
export function releaseLease(sessionFile: string): void {
  if (readLease(sessionFile)?.pid !== process.pid) return;
  try {
    unlinkSync(leasePath(sessionFile));
  } catch {
    // already gone
  }
}

function readLease(sessionFile: string): SessionLease | null {
  try {
    const value = JSON.parse(readFileSync(leasePath(sessionFile), "utf8")) as Partial<SessionLease>;
    if (typeof value.pid !== "number" || !Number.isInteger(value.pid) || value.pid <= 0) return null;
    return { pid: value.pid, since: typeof value.since === "string" ? value.since : "" };
  } catch {
    return null;
  }
}

/** The lease of a live process other than `ownPid`; a lease whose process is gone is stale and ignored. */
export function liveLease(sessionFile: string, ownPid: number): SessionLease | null {
  const lease = readLease(sessionFile);
  return lease && lease.pid !== ownPid && processAlive(lease.pid) ? lease : null;
}
