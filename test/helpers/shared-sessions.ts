import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * Real Pi sessions nobody here wrote: `../shared/pi-sessions` beside the project (read there, never copied in), or
 * the folder named by CONTEXT_KIT_SHARED_SESSIONS. Tests that need them say so when they skip; in CI (`CI` set) a
 * missing folder fails the run instead of skipping quietly.
 */
export const SHARED_SESSIONS =
  process.env.CONTEXT_KIT_SHARED_SESSIONS ?? join(import.meta.dirname, "../../../shared/pi-sessions");

/**
 * The one decision on a folder of real sessions: true when it is there; false, with a message naming the test and
 * the folder, when it is absent outside CI; in CI (`CI` set) an absent folder throws, failing the run.
 */
export function realSessionsPresent(dir: string, test: string): boolean {
  if (existsSync(dir)) return true;
  const message = `${test}: ${dir} is missing, so the tests on real Pi sessions cannot run`;
  if (process.env.CI) throw new Error(`${message} (CI must provide it)`);
  console.warn(`${message}: skipped`);
  return false;
}

/** The folder's `.jsonl` names; an empty list (with a message saying why) when it is absent outside CI. */
export function sharedSessionFiles(test: string): string[] {
  if (!realSessionsPresent(SHARED_SESSIONS, test)) return [];
  return readdirSync(SHARED_SESSIONS)
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
}
