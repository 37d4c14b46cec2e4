import { denialResult } from "./denial-result.js";
import { displayPath } from "./display-path.js";
import { applyEdits, detectLineEnding, type EditFailure, fromLF, toLF } from "./edit-apply.js";
import { loadTextFile } from "./file-inspect.js";
import { fileIssueResult } from "./file-issue-result.js";
import { inputIssue } from "./issues.js";
import { mutationProblem, writeFailure } from "./mutation-guard.js";
import { pathArgProblem } from "./path-arg.js";
import { type EditParams, editSchema } from "./schemas.js";
import type { ToolDeps } from "./tool-deps.js";
import { type ToolDefinition, textResult, throwIfAborted } from "./tool-types.js";

function explain(failure: EditFailure, shown: string, total: number): string {
  const which = (i: number | undefined) => (total === 1 || i === undefined ? "the old text" : `edits[${i}].oldText`);
  switch (failure.reason) {
    case "EDIT_EMPTY":
      return failure.index === undefined
        ? "edit needs at least one entry in edits."
        : `${which(failure.index)} must not be empty.`;
    case "EDIT_NOT_FOUND":
      return `Could not find ${which(failure.index)} in ${shown}. It must match exactly, including whitespace and newlines.`;
    case "EDIT_NOT_UNIQUE":
      return `Found ${failure.occurrences} occurrences of ${which(failure.index)} in ${shown}. Each oldText must be unique; include more surrounding text.`;
    case "EDIT_OVERLAP":
      return `edits[${failure.other}] and edits[${failure.index}] overlap in ${shown}. Merge them into one edit or target disjoint regions.`;
    case "EDIT_NO_CHANGE":
      return `No changes made to ${shown}: the replacements produce identical content.`;
  }
}

export function createEditTool(deps: ToolDeps): ToolDefinition<EditParams> {
  const { policy, ops, limits } = deps;
  return {
    name: "edit",
    label: "edit",
    description:
      "Edit a single file using exact text replacement. Every edits[].oldText must match a unique, non-overlapping " +
      "region of the original file; all edits are applied together or not at all. If two changes affect the same " +
      "block or nearby lines, merge them into one edit. Excluded directories, control files and symlinks are never edited.",
    promptSnippet: "Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
    parameters: editSchema,
    async execute(_id, params, signal) {
      throwIfAborted(signal);
      const edits = params?.edits;
      const wellFormed =
        Array.isArray(edits) && edits.every((e) => typeof e?.oldText === "string" && typeof e?.newText === "string");
      const bad = pathArgProblem("edit", params?.path);
      if (bad) return bad;
      if (!wellFormed) {
        return inputIssue("INVALID_ARGUMENT", "edit needs a string `path` and `edits: [{oldText, newText}, ...]`.");
      }
      const first = policy.decide(params.path, "write");
      if (!first.allowed) return denialResult(first, policy, deps.denials);
      return deps.queue(first.path, async () => {
        const decision = policy.decide(params.path, "write");
        if (!decision.allowed) return denialResult(decision, policy, deps.denials);
        const problem = await mutationProblem(decision, deps, "edit");
        if (problem) return problem;
        const shown = displayPath(policy.root, decision.path);
        const loaded = await loadTextFile(decision.path, ops, limits);
        if (loaded.kind === "issue") return fileIssueResult(loaded, decision.path, policy.root, "edit");
        const bom = loaded.text.startsWith("\uFEFF") ? "\uFEFF" : "";
        const original = loaded.text.slice(bom.length);
        const ending = detectLineEnding(original);
        const outcome = applyEdits(
          toLF(original),
          edits.map((e) => ({ oldText: toLF(e.oldText), newText: toLF(e.newText) })),
        );
        if (!outcome.ok) {
          const extra = "index" in outcome && outcome.index !== undefined ? { editIndex: outcome.index } : {};
          return inputIssue(outcome.reason, explain(outcome, shown, edits.length), { path: decision.path, ...extra });
        }
        throwIfAborted(signal);
        try {
          await ops.writeFile(decision.path, bom + fromLF(outcome.content, ending));
        } catch (error) {
          return writeFailure(error, decision.path, policy.root, "edit");
        }
        return textResult(`Successfully replaced ${edits.length} block(s) in ${shown}.`, {
          path: decision.path,
          mutated: true,
        });
      });
    },
  };
}
