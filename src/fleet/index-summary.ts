import type { FileItem } from "../cli/file-pool.js";
import { readManifest, unchangedSince } from "./manifest.js";

export interface IndexOptions {
  withText?: boolean;
  /** After each file: how many are done of how many. */
  progress?: (done: number, total: number) => void;
}

/** What one `index` run did, file by file. */
export interface IndexSummary {
  db: string;
  files: number;
  indexed: number;
  appended: number;
  unchanged: number;
  unreadable: number;
  /** Files indexed before and indexed whole again, with why (a rewrite, an append that was not one). */
  reindexed: { file: string; reason: string }[];
}

export function newSummary(dbPath: string, items: readonly FileItem[]): IndexSummary {
  return { db: dbPath, files: items.length, indexed: 0, appended: 0, unchanged: 0, unreadable: 0, reindexed: [] };
}

/**
 * The run's summary when the manifest beside the database shows that no file changed since the last run (one `stat`
 * a file, nothing of the indexer or DuckDB loaded); null when something did.
 */
export function unchangedRun(
  dbPath: string,
  items: readonly FileItem[],
  options: IndexOptions = {},
): IndexSummary | null {
  const manifest = readManifest(dbPath);
  if (manifest === null || !unchangedSince(manifest, items)) return null;
  for (let done = 1; done <= items.length; done++) options.progress?.(done, items.length);
  return { ...newSummary(dbPath, items), unchanged: items.length };
}
