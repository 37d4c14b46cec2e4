import { basename } from "node:path";
import { loadTextFile } from "./file-inspect.js";
import { fileIssueResult } from "./file-issue-result.js";
import { grepGlobMatcher } from "./glob.js";
import { inputIssue } from "./issues.js";
import { guardedPath } from "./path-arg.js";
import { type GrepParams, grepSchema } from "./schemas.js";
import { prunedDetails, prunedNote, withNotes } from "./search-notes.js";
import { capOutput, formatSize, MAX_BYTES } from "./text-window.js";
import { countArg, type ToolDeps } from "./tool-deps.js";
import { type ToolDefinition, textResult, throwIfAborted } from "./tool-types.js";
import { walkTree } from "./walk.js";

const MAX_LINE_CHARS = 500;

function clip(line: string): { text: string; cut: boolean } {
  return line.length > MAX_LINE_CHARS
    ? { text: `${line.slice(0, MAX_LINE_CHARS)}... [truncated]`, cut: true }
    : { text: line, cut: false };
}

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
    description:
      "Search file contents for a pattern. Returns matching lines with file paths and line numbers. Output is " +
      `truncated to 100 matches or ${MAX_BYTES / 1024}KB (whichever is hit first). Directories excluded by a ` +
      ".context-exclude marker are skipped without being opened.",
    promptSnippet: "Search file contents for patterns",
    parameters: grepSchema,
    async execute(_id, params, signal) {
      throwIfAborted(signal);
      if (typeof params?.pattern !== "string") return inputIssue("INVALID_ARGUMENT", "grep needs a string `pattern`.");
      const decision = guardedPath(deps, "grep", params.path, "search", true);
      if (!decision.ok) return decision.result;
      const regex = compile(params);
      if (typeof regex === "string") return inputIssue("INVALID_PATTERN", `Invalid regular expression: ${regex}`);
      const limit = countArg(params.limit, 100);
      const context = countArg(params.context, 0);
      const globOk = grepGlobMatcher(params.glob);
      const out: string[] = [];
      let matches = 0;
      let linesCut = false;

      const searchText = (label: string, text: string): boolean => {
        const lines = text.split(/\r\n|\r|\n/);
        if (lines.length > 1 && lines.at(-1) === "") lines.pop();
        for (let i = 0; i < lines.length && matches < limit; i++) {
          if (!regex.test(lines[i] ?? "")) continue;
          matches++;
          const from = Math.max(0, i - context);
          const to = Math.min(lines.length - 1, i + context);
          for (let j = from; j <= to; j++) {
            const { text: shown, cut } = clip(lines[j] ?? "");
            linesCut ||= cut;
            out.push(j === i ? `${label}:${j + 1}: ${shown}` : `${label}-${j + 1}- ${shown}`);
          }
        }
        return matches < limit;
      };

      const searchLimits = { ...limits, maxTextBytes: limits.maxSearchFileBytes };
      const target = await ops.stat(decision.path).catch(() => undefined);
      let pruned: string[] = [];
      if (target?.isDirectory()) {
        const walked = await walkTree(decision.path, deps, signal, async (entry) => {
          if (entry.kind !== "file" || !globOk(entry.rel, entry.name)) return true;
          const loaded = await loadTextFile(entry.realPath, ops, searchLimits);
          return loaded.kind === "text" ? searchText(entry.rel, loaded.text) : true;
        });
        pruned = walked.pruned;
      } else {
        const loaded = await loadTextFile(decision.path, ops, searchLimits);
        if (loaded.kind === "issue") return fileIssueResult(loaded, decision.path, policy.root, "grep");
        searchText(basename(decision.path), loaded.text);
      }
      throwIfAborted(signal);

      const details = {
        path: decision.path,
        ...prunedDetails(pruned),
        ...(matches >= limit ? { matchLimitReached: limit } : {}),
      };
      const skipped = prunedNote(policy.root, pruned);
      if (matches === 0) return textResult(withNotes("No matches found", [skipped]), details);
      const capped = capOutput(out);
      return textResult(
        withNotes(capped.text, [
          matches >= limit
            ? `${limit} matches limit reached. Use limit=${limit * 2} for more, or refine pattern.`
            : undefined,
          capped.truncated ? `${formatSize(MAX_BYTES)} limit reached.` : undefined,
          linesCut ? `Some lines truncated to ${MAX_LINE_CHARS} chars. Use read to see full lines.` : undefined,
          skipped,
        ]),
        details,
      );
    },
  };
}
