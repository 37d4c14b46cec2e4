import type { PrunedDetails } from "../../reducers/contract/tool-details.js";
import { displayPath } from "./display-path.js";

/** `pruned` only when something was skipped, per the contract. */
export function prunedDetails(pruned: readonly string[]): Partial<PrunedDetails> {
  return pruned.length > 0 ? { pruned: [...pruned] } : {};
}

/** A short host note naming skipped excluded paths; nothing under them is named. */
export function prunedNote(root: string, pruned: readonly string[]): string | undefined {
  if (pruned.length === 0) return undefined;
  const shown = pruned.slice(0, 10).map((p) => displayPath(root, p));
  const more = pruned.length > shown.length ? ` and ${pruned.length - shown.length} more` : "";
  return `Skipped ${pruned.length} path(s) excluded by host policy (not searched): ${shown.join(", ")}${more}.`;
}

export function withNotes(body: string, notes: readonly (string | undefined)[]): string {
  const present = notes.filter((n): n is string => n !== undefined);
  return present.length === 0 ? body : `${body}\n\n[${present.join(" ")}]`;
}
