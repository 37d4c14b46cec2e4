import { readdirSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { FileItem } from "../files/file-pool.js";
import { InputError, readError, writeError } from "../files/input-error.js";
import { UsageError } from "./command.js";

/** Runs output work; a file system error becomes a clear `E_WRITE` (exit 2) naming `what` and the path. */
export function writing<T>(what: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (typeof (error as NodeJS.ErrnoException).code === "string" && !(error instanceof InputError)) {
      throw writeError(error, what);
    }
    throw error;
  }
}

/** `writing` for asynchronous work. */
export async function writingAsync<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (typeof (error as NodeJS.ErrnoException).code === "string" && !(error instanceof InputError)) {
      throw writeError(error, what);
    }
    throw error;
  }
}

function statOf(path: string, shown: string) {
  try {
    return statSync(path);
  } catch (error) {
    throw readError(error, shown);
  }
}

/**
 * Files named on the command line; a folder stands for every `.jsonl` below it (like `~/.pi/agent/sessions`). Each
 * file is shown as given: `DIR/sub/x.jsonl` for one found below a folder named `DIR`. A folder with no session
 * file is bad input; a missing file is kept, to be reported as that file's failure, unless `missing` is "refused"
 * (a command whose result would otherwise hold the typo as a session). The files below a folder come in order of
 * their names at each level unless `ordered` is false.
 */
export function expandInputs(
  paths: readonly string[],
  cwd: string,
  { ordered = true, missing = "kept" }: { ordered?: boolean; missing?: "kept" | "refused" } = {},
): FileItem[] {
  if (paths.length === 0) throw new UsageError("name at least one session file or folder");
  const files: FileItem[] = [];
  for (const given of paths) {
    const path = resolve(cwd, given);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined && missing === "refused") statOf(path, given);
    // A path that cannot be read is listed as given: reading it fails that file alone, the others still run.
    if (stat?.isDirectory() !== true) {
      files.push({ path, shown: given });
      continue;
    }
    const found = jsonlBelow(path, "", ordered);
    if (found.length === 0) throw new InputError("E_NO_SESSIONS", `${given}: no session files (*.jsonl) below it`);
    const base = join(given, ".");
    for (const [file, below] of found) files.push({ path: file, shown: base === "." ? below : inFolder(base, below) });
  }
  return files;
}

/** `join(folder, below)` for a normalized folder and a path below it with no `.` or `..` part, without normalizing. */
export function inFolder(folder: string, below: string): string {
  return folder.endsWith(sep) ? folder + below : folder + sep + below;
}

let collator: Intl.Collator | undefined;

/** `localeCompare`'s order, with one collator built (on first use: building it loads locale data) for every name. */
function byName(a: string, b: string): number {
  collator ??= new Intl.Collator();
  return collator.compare(a, b);
}

/** Every `.jsonl` below `dir`, by name at each level: its path, and its path below the folder first named. */
function jsonlBelow(dir: string, below: string, ordered: boolean): [path: string, below: string][] {
  const out: [string, string][] = [];
  const entries = readdirSync(dir, { withFileTypes: true });
  if (ordered) entries.sort((a, b) => byName(a.name, b.name));
  for (const entry of entries) {
    const path = inFolder(dir, entry.name);
    const name = below === "" ? entry.name : `${below}/${entry.name}`;
    if (entry.isDirectory()) out.push(...jsonlBelow(path, name, ordered));
    // A link named *.jsonl is a session too; a dangling one is then reported as unreadable, not skipped.
    else if ((entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith(".jsonl")) out.push([path, name]);
  }
  return out;
}

/** A single session file, for the commands that take exactly one. */
export function singleFile(positionals: readonly string[], cwd: string): FileItem {
  if (positionals.length !== 1) throw new UsageError("name exactly one session file");
  const given = positionals[0] as string;
  const path = resolve(cwd, given);
  if (statOf(path, given).isDirectory()) throw new InputError("E_READ", `${given}: is a folder, not a file`);
  return { path, shown: given };
}

/** An entry id as given, or a unique prefix of one (as Pi's `--session` takes a prefix). */
export function resolveEntryId(
  ids: { has(id: string): boolean; keys(): Iterable<string> },
  given: string,
  shown: string,
): string {
  if (ids.has(given)) return given;
  const matches = [...ids.keys()].filter((id) => id.startsWith(given));
  if (matches.length === 1) return matches[0] as string;
  if (matches.length === 0) throw new UsageError(`no entry ${given} in ${shown}`);
  const listed = matches.slice(0, 5).join(", ");
  throw new UsageError(
    `${given} is a prefix of ${matches.length} entries in ${shown} (${listed}${matches.length > 5 ? ", …" : ""}); give more of the id`,
  );
}
