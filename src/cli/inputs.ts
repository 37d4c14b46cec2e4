import { readdirSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { InputError, UsageError } from "./command.js";
import type { FileItem } from "./file-pool.js";

const ERRNO_WORDS: Record<string, string> = {
  ENOENT: "no such file or folder",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "is a folder, not a file",
  ENOTDIR: "a part of the path is not a folder",
  ELOOP: "too many symbolic links",
  EMFILE: "too many open files",
  EEXIST: "a file is in the way",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
};

/** A file system error as a reader would say it, e.g. `x.jsonl: no such file or folder`. */
export function readError(error: unknown, shown: string): InputError {
  const code = (error as NodeJS.ErrnoException).code;
  const words = (code && ERRNO_WORDS[code]) ?? (code ? `cannot read (${code})` : "cannot read");
  return new InputError("E_READ", `${shown}: ${words}`);
}

/** A file system error on output as a writer would say it, e.g. `--out x/a.html: cannot write x/a.html: …`. */
export function writeError(error: unknown, what: string): InputError {
  const e = error as NodeJS.ErrnoException;
  const words = (e.code && ERRNO_WORDS[e.code]) ?? (e.code ? `failed (${e.code})` : String(e.message));
  const path = e.path ? ` ${e.path}` : "";
  return new InputError("E_WRITE", `${what}: cannot ${e.syscall ?? "write"}${path}: ${words}`);
}

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
