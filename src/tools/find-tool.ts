import { requireDirectory } from "./file-issue-result.js";
import { findMatcher } from "./glob.js";
import { type FindParams, findSchema } from "./schemas.js";
import { prunedDetails, prunedNote, withNotes } from "./search-notes.js";
import { searchDescription, searchStart } from "./search-tool.js";
import { capOutput, formatSize, MAX_BYTES } from "./text-window.js";
import { countArg, type ToolDeps } from "./tool-deps.js";
import { type ToolDefinition, textResult } from "./tool-types.js";
import { walkTree } from "./walk.js";

export function createFindTool(deps: ToolDeps): ToolDefinition<FindParams> {
  const { policy, ops } = deps;
  return {
    name: "find",
    label: "find",
    description: searchDescription(
      "Search for files by glob pattern. Returns matching file paths relative to the search directory.",
      "1000 results",
    ),
    promptSnippet: "Find files by glob pattern",
    parameters: findSchema,
    async execute(_id, params, signal) {
      const decision = searchStart(deps, "find", params, signal);
      if (!decision.ok) return decision.result;
      const notDir = await requireDirectory(decision.path, ops, policy.root, "find");
      if (notDir) return notDir;
      const limit = countArg(params.limit, 1000);
      const matches = findMatcher(params.pattern, deps.findGlobs);
      const found: string[] = [];
      const walked = await walkTree(decision.path, deps, signal, (entry) => {
        if (matches(entry.path, entry.name, entry.rel)) found.push(entry.rel);
        return found.length < limit;
      });
      const details = {
        path: decision.path,
        ...prunedDetails(walked.pruned),
        ...(found.length >= limit ? { resultLimitReached: limit } : {}),
      };
      const skipped = prunedNote(policy.root, walked.pruned);
      if (found.length === 0) return textResult(withNotes("No files found matching pattern", [skipped]), details);
      const capped = capOutput(found);
      return textResult(
        withNotes(capped.text, [
          found.length >= limit ? `${limit} results limit reached.` : undefined,
          capped.truncated ? `${formatSize(MAX_BYTES)} limit reached.` : undefined,
          skipped,
        ]),
        details,
      );
    },
  };
}
