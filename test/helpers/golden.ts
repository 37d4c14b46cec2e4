import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { expect } from "vitest";

/** Goldens are written only on request (`UPDATE_SAMPLES=1`, or a caller's own flag); a missing one fails. */
export const UPDATE_GOLDENS = process.env.UPDATE_SAMPLES === "1";

export function compareGolden(path: string, actual: string, update = UPDATE_GOLDENS): void {
  if (update) writeFileSync(path, actual);
  else if (!existsSync(path)) {
    throw new Error(`golden file ${path} is missing: write it with UPDATE_SAMPLES=1 and review it`);
  }
  expect(actual).toBe(readFileSync(path, "utf8"));
}
