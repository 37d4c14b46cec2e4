import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { textOf } from "../../src/fold/to-event.js";
import type { AgentMessage } from "../../src/log/entry-types.js";

/**
 * Hand-labelled replies of real sessions, read from the session files beside the checkout (only labels and ids are in
 * the repository). Read by the stall evaluation and, built, by the trainer (`scripts/train-stall.mjs`).
 */

/**
 * One hand label of a text-only assistant reply: `real-replies/labels.jsonl` (`label`, `promiseLike`) or a corpus
 * set's `labels.jsonl` (`promise`, `kind`).
 */
export interface ReplyLabel {
  file: string;
  line: number;
  lang: string;
  label?: string;
  promiseLike?: boolean;
  promise?: boolean;
  kind?: string;
}

/** A labelled reply as its session file holds it, and the user's message it answers. */
export interface RealReply {
  label: ReplyLabel;
  /** The message on the label's line (null when the line holds none). */
  message: AgentMessage | null;
  user: string | null;
  /** The label's verdict, in either format. */
  promise: boolean;
  /** The label's kind of reply (promise, deliverable, question …), in either format. */
  kind: string;
}

/** The files of a labelled set whose replies the models are trained on (its `train-files.txt`); none without one. */
export function trainFiles(setDir: string): Set<string> {
  const list = join(setDir, "train-files.txt");
  return new Set(existsSync(list) ? readFileSync(list, "utf8").split("\n").filter(Boolean) : []);
}

/**
 * The labelled replies of the files `keep` accepts; null when the labels or the sessions are missing. A reply is found
 * by its line (v1 files have no entry ids), and the user's message by the lines before it: the user message after the
 * latest assistant message or tool result, as the run reads it on a linear path.
 */
export function readRealReplies(
  labelsPath: string,
  sessionsDir: string,
  keep: (file: string) => boolean = () => true,
): RealReply[] | null {
  if (!existsSync(labelsPath) || !existsSync(sessionsDir)) return null;
  const files = new Map<string, string[]>();
  const out: RealReply[] = [];
  for (const line of readFileSync(labelsPath, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const label = JSON.parse(line) as ReplyLabel;
    if (!keep(label.file)) continue;
    let lines = files.get(label.file);
    if (!lines) {
      lines = readFileSync(join(sessionsDir, label.file), "utf8").split("\n");
      files.set(label.file, lines);
    }
    out.push({
      label,
      message: messageAt(lines, label.line),
      user: userBefore(lines, label.line),
      promise: label.promise ?? (label.label === "promise" || label.promiseLike === true),
      kind: label.kind ?? label.label ?? "",
    });
  }
  return out;
}

function messageAt(lines: readonly string[], line: number): AgentMessage | null {
  try {
    return (JSON.parse(lines[line - 1] ?? "{}") as { message?: AgentMessage }).message ?? null;
  } catch {
    return null;
  }
}

function userBefore(lines: readonly string[], line: number): string | null {
  for (let at = line - 1; at >= 1; at--) {
    const message = messageAt(lines, at);
    if (message?.role === "user") return textOf(message);
    if (message?.role === "assistant" || message?.role === "toolResult") return null;
  }
  return null;
}
