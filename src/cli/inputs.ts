import { readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { FATAL_CODES } from "../log/diagnostics.js";
import type { ReadOptions } from "../log/read-session.js";
import { type LoadedSession, loadSession } from "../session.js";
import type { SessionTree } from "../tree/session-tree.js";
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
function readError(error: unknown, shown: string): InputError {
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
 * file is bad input; a missing file is kept, to be reported as that file's failure.
 */
export function expandInputs(paths: readonly string[], cwd: string): FileItem[] {
  if (paths.length === 0) throw new UsageError("name at least one session file or folder");
  const files: FileItem[] = [];
  for (const given of paths) {
    const path = resolve(cwd, given);
    // A path that cannot be read is listed as given: reading it fails that file alone, the others still run.
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory() !== true) {
      files.push({ path, shown: given });
      continue;
    }
    const found = jsonlBelow(path);
    if (found.length === 0) throw new InputError("E_NO_SESSIONS", `${given}: no session files (*.jsonl) below it`);
    for (const file of found) files.push({ path: file, shown: join(given, relative(path, file)) });
  }
  return files;
}

function jsonlBelow(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsonlBelow(path));
    // A link named *.jsonl is a session too; a dangling one is then reported as unreadable, not skipped.
    else if ((entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith(".jsonl")) out.push(path);
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

/** Reads a session; an unreadable file is bad input (exit 2), named in the message. */
export function loadInput(path: string, shown: string, options?: ReadOptions): LoadedSession {
  try {
    return loadSession(path, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) throw readError(error, shown);
    throw error;
  }
}

/** Why the host cannot load a file, with the diagnostic's code: the host would treat it as empty. */
export function notASession(session: LoadedSession, shown: string): InputError {
  const fatal = session.diagnostics.find((d) => FATAL_CODES.has(d.code)) ?? session.diagnostics[0];
  if (!fatal) return new InputError("E_BAD_HEADER", `${shown}: not a Pi session file`);
  return new InputError(fatal.code, `${shown}:${fatal.line}: not a Pi session file (${fatal.message})`);
}

/** A session the host can load; anything else is bad input that says why. */
export function loadUsable(path: string, shown: string, options?: ReadOptions): LoadedSession {
  const session = loadInput(path, shown, options);
  if (session.log.unusable) throw notASession(session, shown);
  return session;
}

/** An entry id as given, or a unique prefix of one (as Pi's `--session` takes a prefix). */
export function resolveEntryId(tree: SessionTree, given: string, shown: string): string {
  if (tree.get(given)) return given;
  const matches = [...tree.byId.keys()].filter((id) => id.startsWith(given));
  if (matches.length === 1) return matches[0] as string;
  if (matches.length === 0) throw new UsageError(`no entry ${given} in ${shown}`);
  const listed = matches.slice(0, 5).join(", ");
  throw new UsageError(
    `${given} is a prefix of ${matches.length} entries in ${shown} (${listed}${matches.length > 5 ? ", …" : ""}); give more of the id`,
  );
}
