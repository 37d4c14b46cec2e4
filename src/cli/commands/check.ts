import { checkView, type Violation } from "../../../projections/invariants.js";
import { foldTree } from "../../fold/session-fold.js";
import type { Diagnostic } from "../../log/diagnostics.js";
import { anchorIsAuthentic, viewOfLeaf } from "../../view/leaf-view.js";
import { type Command, FILES_JSON_HELP, FILES_JSON_OPTIONS } from "../command.js";
import { type FileFailure, settle } from "../file-outcome.js";
import { runOverFiles } from "../folder-run.js";
import { loadUsable } from "../inputs.js";
import { capped, plural } from "../text.js";

export interface CheckFileReport {
  file: string;
  branches: number;
  violations: (Violation & { leafId: string })[];
  /** Error diagnostics: lines the host drops or entries it re-parents, so the model sees something else. */
  readerErrors: Diagnostic[];
}

export interface CheckReport {
  files: (CheckFileReport | FileFailure)[];
}

/** Problems printed per file; `--json` lists them all. */
const SHOWN = 20;

export function checkSessionFile(path: string, shown: string): CheckFileReport | FileFailure {
  return settle(shown, () => {
    const { tree, diagnostics } = loadUsable(path, shown);
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
    const readerErrors = diagnostics.filter((d) => d.severity === "error");
    return { file: shown, branches: leaves.length, violations, readerErrors };
  });
}

export function formatCheck(f: CheckFileReport): string {
  const problems = f.violations.length + f.readerErrors.length;
  const lines = [
    ...f.readerErrors.map((d) => `  line ${d.line}: ${d.code}: ${d.message}`),
    ...f.violations.map((v) => `  leaf ${v.leafId}: ${v.code}: ${v.message}`),
  ];
  const head = `${f.file}: ${plural(f.branches, "branch", "branches")}, ${
    problems === 0 ? "ok" : plural(problems, "violation")
  }`;
  return [head, ...capped(lines, SHOWN, (more) => `  … ${more} more (--json lists all)`)].join("\n");
}

export const checkCommand: Command = {
  name: "check",
  summary: "Check what the model would see on every branch of every session file (a folder is searched).",
  usage: "FILE|DIR... [--json | --ndjson]",
  description:
    "For every leaf of every file, computes the outgoing view and checks the projection invariants (every user message of the branch kept, tool calls paired with their results, a recovery view only from an authentic marker, ...). Error diagnostics count as violations too: a line the host drops, an entry it re-parents or a cycle changes what the model sees. Exit 1 on any violation, 2 when a file is unreadable or not a Pi session file (the others are still checked).",
  options: { ...FILES_JSON_OPTIONS },
  optionHelp: { ...FILES_JSON_HELP },
  examples: ["context-kit check ~/.pi/agent/sessions", "context-kit check session.jsonl --json"],
  run(context) {
    return runOverFiles<CheckFileReport>(
      {
        name: "check",
        task: { module: import.meta.url, name: "checkSessionFile", fn: checkSessionFile },
        format: formatCheck,
        separator: "\n",
        verdict: (f) =>
          f.violations.length + f.readerErrors.length > 0
            ? { exitCode: 1, label: "with violations" }
            : { exitCode: 0, label: "ok" },
      },
      context,
    );
  },
};
