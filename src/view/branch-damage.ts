import type { Diagnostic } from "../log/diagnostics.js";
import type { SessionLog } from "../log/read-session.js";
import type { SessionTree } from "../tree/session-tree.js";

/** A branch cut from its root: the host walks up from the leaf and stops silently at the missing parent. */
export interface BranchCut {
  /** Where the host's walk stops: the branch as the host builds it starts here. */
  rootId: string;
  /** The parent the root names, which the host does not have. */
  missingParentId: string;
  /** The line the host drops that held that parent; null when the file never had it. */
  droppedLine: number | null;
}

/** What is wrong with the branch to `leafId` alone: where it is cut, and the diagnostics of its own entries. */
export interface BranchDamage {
  cut: BranchCut | null;
  diagnostics: Diagnostic[];
}

export function branchDamage(
  log: SessionLog,
  tree: SessionTree,
  diagnostics: readonly Diagnostic[],
  leafId: string | null,
): BranchDamage {
  if (leafId === null) return { cut: null, diagnostics: [] };
  const path = tree.pathTo(leafId);
  const onPath = new Set(path.map((e) => e.id));
  const root = path[0];
  let cut: BranchCut | null = null;
  if (root && typeof root.parentId === "string" && root.parentId !== root.id) {
    const missingParentId = root.parentId;
    const dropped = log.dropped.find((d) => d.ids.includes(missingParentId));
    cut = { rootId: root.id, missingParentId, droppedLine: dropped ? dropped.line : null };
  }
  const mine = diagnostics.filter(
    (d) =>
      d.severity === "error" &&
      ((d.entryId !== undefined && onPath.has(d.entryId)) ||
        (cut !== null && cut.droppedLine !== null && d.line === cut.droppedLine)),
  );
  return { cut, diagnostics: mine };
}

/** What the host does with a cut branch, in words (the report marks such a branch orphaned). */
export function describeCut(cut: BranchCut): string {
  const why =
    cut.droppedLine === null
      ? `its root ${cut.rootId} names a parent ${cut.missingParentId} that is not in the file`
      : `the host drops line ${cut.droppedLine} (entry ${cut.missingParentId}, the parent of ${cut.rootId})`;
  return `orphaned: ${why}, so the host sends this branch from entry ${cut.rootId} on and nothing before it`;
}
