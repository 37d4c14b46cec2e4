import type { Diagnostic } from "./log/diagnostics.js";
import { parseSessionText, type ReadOptions, readSessionFile, type SessionLog } from "./log/read-session.js";
import { explainLosses } from "./tree/losses.js";
import { SessionTree } from "./tree/session-tree.js";

/** A session file read the way the host reads it, with its tree and every diagnostic in line order. */
export interface LoadedSession {
  log: SessionLog;
  tree: SessionTree;
  diagnostics: Diagnostic[];
}

export function loadSession(path: string, options?: ReadOptions): LoadedSession {
  return assemble(readSessionFile(path, options));
}

export function loadSessionText(name: string, text: string | Buffer, options?: ReadOptions): LoadedSession {
  return assemble(parseSessionText(name, text, options));
}

function assemble(log: SessionLog): LoadedSession {
  const tree = SessionTree.fromLog(log);
  explainLosses(log, tree);
  const diagnostics = [...log.diagnostics, ...tree.diagnostics].sort(
    (a, b) => a.line - b.line || a.byteOffset - b.byteOffset,
  );
  return { log, tree, diagnostics };
}
