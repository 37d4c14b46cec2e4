import { basename } from "node:path";
import { loadTextFile } from "./file-inspect.js";
import { fileIssueResult } from "./file-issue-result.js";
import { grepGlobMatcher } from "./glob.js";
import { GrepOutput, MAX_LINE_CHARS } from "./grep-output.js";
import { grepWithRipgrep } from "./grep-ripgrep.js";
import { inOrder, READ_AHEAD } from "./in-order.js";
import { inputIssue } from "./issues.js";
import { type GrepParams, grepSchema } from "./schemas.js";
import { prunedDetails, prunedNote, withNotes } from "./search-notes.js";
import { searchDescription, searchStart } from "./search-tool.js";
import { capOutput, formatSize, MAX_BYTES } from "./text-window.js";
import { countArg, type ToolDeps } from "./tool-deps.js";
import { type ToolDefinition, textResult, throwIfAborted } from "./tool-types.js";
import { type WalkEntry, walkTree } from "./walk.js";

function compile(params: GrepParams): RegExp | string {
  const source = params.literal ? params.pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : params.pattern;
  try {
    return new RegExp(source, params.ignoreCase ? "i" : "");
  } catch (error) {
    return (error as Error).message;
  }
}

export function createGrepTool(deps: ToolDeps): ToolDefinition<GrepParams> {
  const { policy, ops, limits } = deps;
  return {
    name: "grep",
    label: "grep",
    description: searchDescription(
      "Search file contents for a pattern. Returns matching lines with file paths and line numbers.",
      "100 matches",
    ),
    promptSnippet: "Search file contents for patterns",
    parameters: grepSchema,
    async execute(_id, params, signal) {
      const decision = searchStart(deps, "grep", params, signal);
      if (!decision.ok) return decision.result;
      const regex = compile(params);
      if (typeof regex === "string") return inputIssue("INVALID_PATTERN", `Invalid regular expression: ${regex}`);
      const limit = countArg(params.limit, 100);
      const context = countArg(params.context, 0);
      const globOk = grepGlobMatcher(params.glob);
      const out = new GrepOutput(limit, context);

      const searchLimits = { ...limits, maxTextBytes: limits.maxSearchFileBytes };
      const target = await ops.stat(decision.path).catch(() => undefined);
      let pruned: string[] = [];
      if (target?.isDirectory()) {
        const viaRg = deps.ripgrep
          ? await grepWithRipgrep(deps, deps.ripgrep, decision.path, params, globOk, out, signal)
          : null;
        if (viaRg) pruned = viaRg.pruned;
        else {
          // Walk first (names only), then read the files several at a time, searching them in walk order.
          const files: WalkEntry[] = [];
          const walked = await walkTree(decision.path, deps, signal, (entry) => {
            if (entry.kind === "file" && globOk(entry.rel, entry.name)) files.push(entry);
            return true;
          });
          await inOrder(
            files,
            (entry) => loadTextFile(entry.realPath, ops, searchLimits),
            (entry, loaded) => (loaded.kind === "text" ? out.searchText(entry.rel, loaded.text, regex) : true),
            READ_AHEAD,
            signal,
          );
          pruned = walked.pruned;
        }
      } else {
        const loaded = await loadTextFile(decision.path, ops, searchLimits);
        if (loaded.kind === "issue") return fileIssueResult(loaded, decision.path, policy.root, "grep");
        out.searchText(basename(decision.path), loaded.text, regex);
      }
      throwIfAborted(signal);

      const details = {
        path: decision.path,
        ...prunedDetails(pruned),
        ...(out.full ? { matchLimitReached: limit } : {}),
      };
      const skipped = prunedNote(policy.root, pruned);
      if (out.matches === 0) return textResult(withNotes("No matches found", [skipped]), details);
      const capped = capOutput(out.lines);
      return textResult(
        withNotes(capped.text, [
          out.full ? `${limit} matches limit reached. Use limit=${limit * 2} for more, or refine pattern.` : undefined,
          capped.truncated ? `${formatSize(MAX_BYTES)} limit reached.` : undefined,
          out.linesCut ? `Some lines truncated to ${MAX_LINE_CHARS} chars. Use read to see full lines.` : undefined,
          skipped,
        ]),
        details,
      );
    },
  };
}
