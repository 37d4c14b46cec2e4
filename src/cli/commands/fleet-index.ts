import { resolve } from "node:path";
import type { FileItem } from "../../files/file-pool.js";
import { checkDatabaseFile } from "../../fleet/db-file.js";
import {
  type IndexOptions,
  type IndexSummary,
  type ManifestChanges,
  manifestChanges,
  manifestNames,
  unchangedSummary,
} from "../../fleet/index-summary.js";
import { asKnown } from "../../fleet/known-names.js";
import { plural } from "../../text.js";
import { type Command, JSON_HELP, JSON_OPTION, UsageError } from "../command.js";
import { expandInputs } from "../inputs.js";
import { progressBar } from "../progress-bar.js";

export function formatIndex(s: IndexSummary): string {
  const lines = [
    `${s.db}: ${plural(s.files, "file")}: ${s.indexed} indexed, ${s.appended} appended, ${s.unchanged} unchanged, ${s.unreadable} unreadable`,
  ];
  for (const r of s.reindexed) lines.push(`  ${r.file}: indexed whole again: ${r.reason}`);
  return lines.join("\n");
}

async function indexWithDatabase(
  path: string,
  items: FileItem[],
  options: IndexOptions,
  changes: ManifestChanges | null,
): Promise<IndexSummary> {
  const [{ openForIndex }, { indexChanged }] = await Promise.all([
    import("../../fleet/index-open.js"),
    import("../../fleet/index-run.js"),
  ]);
  return indexChanged(path, items, options, openForIndex(path, options.withText), changes);
}

/**
 * The files in order when some are new to the database (their rows then go in in the order of the other commands);
 * the list as read when every changed file is one it holds (building the order's collator alone takes about 10 ms).
 */
function inOrderIfNew(listed: FileItem[], changes: ManifestChanges | null, positionals: string[], cwd: string) {
  const allKnown =
    changes !== null && [...changes.changed].every((shown) => Object.hasOwn(changes.manifest.files, shown));
  if (allKnown) return listed;
  const names = changes === null ? new Map<string, string>() : manifestNames(changes.manifest);
  return asKnown(expandInputs(positionals, cwd, { missing: "refused" }), names);
}

export const indexCommand: Command = {
  name: "index",
  summary:
    "Index many session files into a DuckDB database (incremental): sessions, branches, requests, tool calls, denials, stalls, loops.",
  usage: "FILE|DIR... --db FILE.duckdb [--with-text] [--json]",
  description:
    "Writes one row per fact into an embedded DuckDB database: sessions, branches, requests, tool_calls, denials, stalls, tool_loops, verification and diagnostics (see the fleet docs for the columns). Run it again on the same folder and only what changed is read: an unchanged file costs one stat, a file appended to since is indexed by its new lines (its indexed part proven unchanged by its SHA-256), a rewritten file is indexed whole again and the run says so. A line still being written (no newline yet) waits for the next run. Bad or unreadable files land in the diagnostics table and never stop the run. No message text unless --with-text. Needs the optional dependency @duckdb/node-api. Exit 0, or 2 on bad usage, a path named that does not exist, or a database that cannot be opened (or a file of other data named as one); nothing is written then.",
  options: { ...JSON_OPTION, db: { type: "string" }, "with-text": { type: "boolean", default: false } },
  optionHelp: {
    "--db FILE.duckdb": "the database to create or bring up to date",
    "--with-text": "keep the assistant replies' text in requests.text",
    ...JSON_HELP,
  },
  examples: [
    "context-kit index ~/.pi/agent/sessions --db fleet.duckdb",
    "context-kit index sessions/ --db fleet.duckdb --json",
  ],
  async run({ values, positionals, cwd }) {
    const db = values.db as string | undefined;
    if (!db) throw new UsageError("--db FILE.duckdb is required");
    // Whether anything changed does not depend on the files' order: they are put in order only when it did.
    const listed = expandInputs(positionals, cwd, { ordered: false, missing: "refused" });
    const bar = progressBar("index");
    try {
      const path = resolve(cwd, db);
      checkDatabaseFile(path, db);
      const options = { withText: values["with-text"] === true, progress: bar.update };
      // The indexer and DuckDB are loaded only when a file changed; the database opens while the indexer loads.
      const changes = manifestChanges(path, listed);
      const items = changes?.items ?? asKnown(listed, new Map());
      const summary =
        changes?.changed.size === 0
          ? unchangedSummary(path, items, options)
          : await indexWithDatabase(path, inOrderIfNew(items, changes, positionals, cwd), options, changes);
      summary.db = db;
      return { exitCode: 0, json: summary, text: formatIndex(summary) };
    } finally {
      bar.stop();
    }
  },
};
