import type { FileItem } from "../files/file-pool.js";
import { asKnown } from "./known-names.js";
import { changedItems, type Manifest, readManifest } from "./manifest.js";

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

/** What the manifest beside the database says changed among the items since the last run. */
export interface ManifestChanges {
  manifest: Manifest;
  /** The items under the names the database knows them by (`asKnown`). */
  items: FileItem[];
  /** The shown names of the files that are new or changed. */
  changed: ReadonlySet<string>;
}

/**
 * What changed since the last run by the manifest beside the database (one `stat` a file, nothing of the indexer or
 * DuckDB loaded); null when there is no manifest of the database as it is now.
 */
export function manifestChanges(dbPath: string, listed: readonly FileItem[]): ManifestChanges | null {
  const manifest = readManifest(dbPath);
  if (manifest === null) return null;
  const items = asKnown(listed, manifestNames(manifest));
  return { manifest, items, changed: new Set(changedItems(manifest, items).map((item) => item.shown)) };
}

/** The name each indexed path is held under, by the manifest. */
export function manifestNames(manifest: Manifest): Map<string, string> {
  return new Map(Object.entries(manifest.files).map(([shown, [path]]) => [path, shown]));
}

/** The run's summary when no file changed. */
export function unchangedSummary(dbPath: string, items: readonly FileItem[], options: IndexOptions = {}): IndexSummary {
  for (let done = 1; done <= items.length; done++) options.progress?.(done, items.length);
  return { ...newSummary(dbPath, items), unchanged: items.length };
}
