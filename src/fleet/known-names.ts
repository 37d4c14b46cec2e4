import type { FileItem } from "../files/file-pool.js";

/**
 * The items under the names the database holds their paths by, each path once: a file indexed as
 * `sessions/a.jsonl` and named later as `/home/u/sessions/a.jsonl` or `./sessions/a.jsonl` is the file it holds,
 * not a new session.
 */
export function asKnown(items: readonly FileItem[], names: ReadonlyMap<string, string>): FileItem[] {
  const seen = new Set<string>();
  const out: FileItem[] = [];
  for (const item of items) {
    if (seen.has(item.path)) continue;
    seen.add(item.path);
    const name = names.get(item.path);
    out.push(name === undefined || name === item.shown ? item : { path: item.path, shown: name });
  }
  return out;
}
