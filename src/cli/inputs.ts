import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { type LoadedSession, loadSession } from "../session.js";
import { InputError, UsageError } from "./command.js";

/** Files named on the command line; a folder stands for every `.jsonl` below it (like `~/.pi/agent/sessions`). */
export function expandInputs(paths: readonly string[], cwd: string): string[] {
  if (paths.length === 0) throw new UsageError("name at least one session file or folder");
  const files: string[] = [];
  for (const given of paths) {
    const path = resolve(cwd, given);
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch (error) {
      throw new InputError("E_READ", `${given}: ${(error as NodeJS.ErrnoException).code ?? "cannot read"}`);
    }
    if (isDir) files.push(...jsonlBelow(path));
    else files.push(path);
  }
  return files;
}

function jsonlBelow(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsonlBelow(path));
    else if (entry.isFile() && entry.name.endsWith(".jsonl")) out.push(path);
  }
  return out;
}

/** A single session file, for the commands that take exactly one. */
export function singleFile(positionals: readonly string[], cwd: string): string {
  if (positionals.length !== 1) throw new UsageError("name exactly one session file");
  const path = resolve(cwd, positionals[0] as string);
  try {
    if (!statSync(path).isFile()) throw new InputError("E_READ", `${positionals[0]}: not a file`);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError("E_READ", `${positionals[0]}: ${(error as NodeJS.ErrnoException).code ?? "cannot read"}`);
  }
  return path;
}

export function isSingleFile(positionals: readonly string[], cwd: string): boolean {
  if (positionals.length !== 1) return false;
  try {
    return statSync(resolve(cwd, positionals[0] as string)).isFile();
  } catch {
    return false;
  }
}

/** Reads a session; an unreadable file is bad input (exit 2), named in the message. */
export function loadInput(path: string, shown: string): LoadedSession {
  try {
    return loadSession(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code) throw new InputError("E_READ", `${shown}: cannot read (${code})`);
    throw error;
  }
}
