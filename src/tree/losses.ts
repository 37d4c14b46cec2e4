import type { Diagnostic } from "../log/diagnostics.js";
import type { SessionLog } from "../log/read-session.js";
import { lostPathText } from "./lost-path.js";
import type { SessionTree } from "./session-tree.js";

/**
 * Says what each line the host drops costs: the entries it orphans (with their leaves) and, for a compaction, that
 * its summary disappears from every branch below it.
 */
export function explainLosses(log: SessionLog, tree: SessionTree): void {
  const droppedAt = new Map<string, number>();
  for (const record of log.dropped) for (const id of record.ids) droppedAt.set(id, record.line);
  if (droppedAt.size === 0) return;

  const orphansOf = new Map<string, string[]>();
  for (const id of tree.orphans) {
    const missing = tree.get(id)?.parentId;
    if (missing && droppedAt.has(missing)) orphansOf.set(missing, [...(orphansOf.get(missing) ?? []), id]);
  }

  const byLine = new Map<number, Diagnostic>();
  for (const d of log.diagnostics) {
    if (d.code === "E_JSON" || d.code === "E_TWO_RECORDS" || d.code === "E_NUL") byLine.set(d.line, d);
  }
  for (const record of log.dropped) {
    const d = byLine.get(record.line);
    if (!d) continue;
    const notes: string[] = [];
    if (record.types.includes("compaction")) notes.push("a compaction is lost: its summary leaves the context");
    for (const id of record.ids) {
      const orphans = orphansOf.get(id) ?? [];
      if (orphans.length === 0) continue;
      const leaves = orphans.flatMap((o) => leavesUnder(tree, o));
      const count = orphans.reduce((n, o) => n + subtreeSize(tree, o), 0);
      notes.push(
        `${lostPathText(count)} (${leaves.length === 1 ? "leaf" : "leaves"} ${leaves.slice(0, 5).join(", ")}${leaves.length > 5 ? ", …" : ""})`,
      );
    }
    if (notes.length > 0) d.message += `; ${notes.join("; ")}`;
  }
  for (const d of tree.diagnostics) {
    if (d.code !== "E_MISSING_PARENT" || !d.entryId) continue;
    const missing = tree.get(d.entryId)?.parentId;
    const line = missing ? droppedAt.get(missing) : undefined;
    if (line !== undefined) d.message += ` (it was on line ${line}, which the host drops)`;
  }
}

function subtreeSize(tree: SessionTree, id: string): number {
  let count = 0;
  const stack = [id];
  while (stack.length > 0) {
    const next = stack.pop() as string;
    count++;
    stack.push(...tree.childrenOf(next));
  }
  return count;
}

function leavesUnder(tree: SessionTree, id: string): string[] {
  const out: string[] = [];
  const stack = [id];
  while (stack.length > 0) {
    const next = stack.pop() as string;
    const kids = tree.childrenOf(next);
    if (kids.length === 0) out.push(next);
    else stack.push(...kids);
  }
  return out;
}
