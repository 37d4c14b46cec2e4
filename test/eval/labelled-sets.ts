import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { isStalled } from "../../reducers/recovery.js";
import { classifyReply } from "../../src/detect/index.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { textOf } from "../../src/fold/to-event.js";
import type { AgentMessage } from "../../src/log/entry-types.js";
import { loadSession } from "../../src/session.js";
import type { Scored } from "./eval-table.js";

/** One labelled leaf of a split: `labels.jsonl` next to the Pi session files. */
export interface LeafLabel {
  file: string;
  leaf: string | null;
  stall: boolean;
  lang: string;
  category: string;
  note?: string;
}

export function readLabels(dir: string): LeafLabel[] | null {
  const path = join(dir, "labels.jsonl");
  if (!existsSync(path)) return null;
  return readFileSync(path, "utf8")
    .split("\n")
    .flatMap((line, i) => (line.trim() ? [toLeafLabel(line, `${path}:${i + 1}`)] : []));
}

/** A label line; categories and languages are free strings (a new split may bring ones this harness has not seen). */
function toLeafLabel(line: string, where: string): LeafLabel {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(line) as Record<string, unknown>;
  } catch {
    throw new Error(`${where}: not JSON`);
  }
  const { file, leaf, stall, lang, category, note } = raw;
  if (typeof file !== "string") throw new Error(`${where}: "file" must be a string`);
  if (leaf !== null && leaf !== undefined && typeof leaf !== "string") {
    throw new Error(`${where}: "leaf" must be null or an entry id`);
  }
  if (typeof stall !== "boolean") throw new Error(`${where}: "stall" must be true or false`);
  return {
    file,
    leaf: leaf ?? null,
    stall,
    lang: typeof lang === "string" ? lang : "(no language)",
    category: typeof category === "string" ? category : "(no category)",
    ...(typeof note === "string" ? { note } : {}),
  };
}

/** The detector's verdict on a labelled leaf (null: the active leaf), through the same fold the kit runs live. */
export function stalledAt(file: string, leaf: string | null): { stalled: boolean; promiseEntryIds: string[] } {
  const { tree } = loadSession(file);
  const state = foldTree(tree).stateAt(leaf ?? tree.activeLeafId);
  return { stalled: isStalled(state.recovery), promiseEntryIds: [...state.recovery.run.promiseEntryIds] };
}

/** Score a split; `withDetail` false keeps the frozen test split's contents out of the output. */
export function scoreSplit(dir: string, withDetail: boolean): Scored[] | null {
  const labels = readLabels(dir);
  if (!labels) return null;
  return labels.map((label) => {
    const verdict = stalledAt(join(dir, label.file), label.leaf);
    const id = `${basename(label.file, ".jsonl")}${label.leaf ? `@${label.leaf}` : ""}`;
    const detail = withDetail
      ? `${label.note ?? ""}${verdict.promiseEntryIds.length ? ` (run: ${verdict.promiseEntryIds.join(", ")})` : ""}`
      : "";
    return {
      id,
      expected: label.stall,
      predicted: verdict.stalled,
      lang: label.lang,
      category: label.category,
      detail,
    };
  });
}

/**
 * Every entry of every real session in a folder taken as a leaf (the real leaves, and every earlier point a session
 * passed through): none of them is expected to be a stall.
 */
export function scoreRealLeaves(dir: string): Scored[] | null {
  if (!existsSync(dir)) return null;
  const out: Scored[] = [];
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith(".jsonl"))
    .sort()) {
    const { tree, log } = loadSession(join(dir, name));
    const fold = foldTree(tree);
    const leaves = new Set(tree.leaves());
    for (const { id } of log.entries) {
      const state = fold.stateAt(id);
      out.push({
        id: `${name}@${id}`,
        expected: false,
        predicted: isStalled(state.recovery),
        lang: "real",
        category: leaves.has(id) ? "leaf" : "earlier entry as a leaf",
        detail: `(run: ${state.recovery.run.promiseEntryIds.join(", ")})`,
      });
    }
  }
  return out;
}

/** One hand label of a text-only assistant reply in a real session (`real-replies/labels.jsonl`). */
interface ReplyLabel {
  file: string;
  line: number;
  entryId: string | null;
  label: string;
  promiseLike: boolean;
  lang: string;
}

/**
 * The classifier on every labelled real reply: expected is "promise" or promise-like, predicted is the classifier's
 * "promise". The reply is found by its line in the session file (v1 files have no entry ids).
 */
export function scoreRealReplies(labelsPath: string, sessionsDir: string): Scored[] | null {
  if (!existsSync(labelsPath) || !existsSync(sessionsDir)) return null;
  const labels = readFileSync(labelsPath, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as ReplyLabel);
  const files = new Map<string, string[]>();
  return labels.map((label) => {
    let lines = files.get(label.file);
    if (!lines) {
      lines = readFileSync(join(sessionsDir, label.file), "utf8").split("\n");
      files.set(label.file, lines);
    }
    const entry = JSON.parse(lines[label.line - 1] ?? "{}") as { message?: AgentMessage };
    const reply = entry.message ? classifyReply(textOf(entry.message)) : null;
    return {
      id: `${label.file.slice(0, 40)}:${label.line}`,
      expected: label.label === "promise" || label.promiseLike,
      predicted: reply?.kind === "promise",
      lang: label.lang,
      category: label.label,
      detail: reply ? `(classified ${reply.kind}: ${reply.reason})` : "(no message on that line)",
    };
  });
}
