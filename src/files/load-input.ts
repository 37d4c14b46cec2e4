import { FATAL_CODES } from "../log/diagnostics.js";
import type { ReadOptions } from "../log/read-session.js";
import { type LoadedSession, loadSession } from "../session.js";
import { InputError, readError } from "./input-error.js";

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
