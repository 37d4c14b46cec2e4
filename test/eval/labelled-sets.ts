import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { isStalled } from "../../reducers/recovery.js";
import { readsAsPromise } from "../../src/detect/index.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { textOf } from "../../src/fold/to-event.js";
import { loadSession } from "../../src/session.js";
import type { Scored } from "./eval-table.js";
import { readRealReplies } from "./real-reply-labels.js";

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

/**
 * The detector's reading of every labelled real reply: expected is a promise (or promise-like), predicted is a
 * promise to either reader (`detail` says which), given the user's message the reply answers. `trainedOn`: files whose
 * replies the models were trained on, left out.
 */
export function scoreRealReplies(
  labelsPath: string,
  sessionsDir: string,
  trainedOn: ReadonlySet<string> = new Set(),
): Scored[] | null {
  const replies = readRealReplies(labelsPath, sessionsDir, (file) => !trainedOn.has(file));
  return (
    replies?.map(({ label, message, user, promise, kind }) => {
      const text = message ? textOf(message) : null;
      const read = text === null ? null : readsAsPromise({ text, user });
      const readers = read ? [read.rules ? "rules" : "", read.models ? "models" : ""].filter(Boolean) : [];
      return {
        id: `${label.file.slice(0, 40)}:${label.line}`,
        expected: promise,
        predicted: readers.length > 0,
        lang: label.lang,
        category: kind,
        detail: read ? `(a promise to: ${readers.join(" and ") || "neither reader"})` : "(no message on that line)",
      };
    }) ?? null
  );
}
