import { relative } from "node:path";
import { checkView, type Violation } from "../../../projections/invariants.js";
import { foldTree } from "../../fold/session-fold.js";
import { type Diagnostic, formatDiagnostic } from "../../log/diagnostics.js";
import { invalidRecords } from "../../log/invalid-record.js";
import { anchorIsAuthentic, viewOfLeaf } from "../../view/leaf-view.js";
import { type Command, JSON_OPTION } from "../command.js";
import { mapFiles } from "../file-pool.js";
import { expandInputs, loadInput } from "../inputs.js";

export interface CheckReport {
  files: {
    file: string;
    branches: number;
    violations: (Violation & { leafId: string })[];
    unusable?: true;
    /** Records that failed their schema: checked with their content left out. */
    invalidRecords?: Diagnostic[];
  }[];
}

export function checkSessionFile(path: string, shown: string): CheckReport["files"][number] {
  const { tree, log } = loadInput(path, shown);
  if (log.unusable) return { file: shown, branches: 0, violations: [], unusable: true };
  const fold = foldTree(tree);
  const violations: (Violation & { leafId: string })[] = [];
  const leaves = tree.leaves();
  for (const leafId of leaves) {
    const v = viewOfLeaf(tree, fold, leafId);
    const found = checkView({
      host: v.host.messages,
      view: v.messages,
      anchorIndex: v.anchorIndex,
      branchUsers: v.branchUsers,
      anchorAuthentic: anchorIsAuthentic(tree, v.anchorId),
    });
    for (const violation of found) violations.push({ leafId, ...violation });
  }
  const invalid = invalidRecords(log);
  return {
    file: shown,
    branches: leaves.length,
    violations,
    ...(invalid.length > 0 ? { invalidRecords: invalid } : {}),
  };
}

export const checkCommand: Command = {
  name: "check",
  summary: "Check the projection invariants on every branch of every session file (a folder is searched).",
  usage: "context-kit check FILE|DIR... [--json]",
  options: { ...JSON_OPTION },
  async run({ positionals, cwd, progress }) {
    const paths = expandInputs(positionals, cwd);
    const items = paths.map((path) => ({ path, shown: relative(cwd, path) || path }));
    const files = await mapFiles({ module: import.meta.url, name: "checkSessionFile", fn: checkSessionFile }, items, {
      progress: (done, total) => progress(done < total ? `check ${done}/${total}` : ""),
    });
    const report: CheckReport = { files };
    const bad = files.some((f) => f.violations.length > 0);
    const unusable = files.some((f) => f.unusable || f.invalidRecords);
    const lines = files.map((f) =>
      f.unusable
        ? `${f.file}: not a usable session file (see inspect)`
        : `${f.file}: ${f.branches} branch(es), ${f.violations.length === 0 ? "ok" : `${f.violations.length} violation(s)`}${f.violations
            .map((v) => `\n  leaf ${v.leafId}: ${v.code}: ${v.message}`)
            .join("")}${(f.invalidRecords ?? []).map((d) => `\n  ${formatDiagnostic(f.file, d)}`).join("")}`,
    );
    return { exitCode: bad ? 1 : unusable ? 2 : 0, json: report, text: lines.join("\n") };
  },
};
