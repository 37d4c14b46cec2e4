import type { Dirent } from "node:fs";
import { join } from "node:path";
import { requireDirectory } from "./file-issue-result.js";
import { guardedPath } from "./path-arg.js";
import { type LsParams, lsSchema } from "./schemas.js";
import { prunedDetails, withNotes } from "./search-notes.js";
import { capOutput, formatSize, MAX_BYTES } from "./text-window.js";
import { countArg, type ToolDeps } from "./tool-deps.js";
import { type ToolDefinition, textResult, throwIfAborted } from "./tool-types.js";

export function createLsTool(deps: ToolDeps): ToolDefinition<LsParams> {
  const { policy, ops } = deps;
  return {
    name: "ls",
    label: "ls",
    description:
      "List directory contents. Returns entries sorted alphabetically, with '/' suffix for directories. Includes " +
      `dotfiles. Output is truncated to 500 entries or ${MAX_BYTES / 1024}KB (whichever is hit first). Directories ` +
      "excluded by a .context-exclude marker are shown as excluded and cannot be listed.",
    promptSnippet: "List directory contents",
    parameters: lsSchema,
    async execute(_id, params, signal) {
      throwIfAborted(signal);
      const decision = guardedPath(deps, "ls", params?.path, "list", true);
      if (!decision.ok) return decision.result;
      let entries: Dirent[];
      try {
        entries = await ops.readdir(decision.path);
      } catch (error) {
        // Only a listing that fails pays for the stat that says why (not a directory, missing, denied).
        const notDir = await requireDirectory(decision.path, ops, policy.root, "ls");
        if (notDir) return notDir;
        throw error;
      }
      const limit = countArg(params?.limit, 500);
      entries.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
      const lines: string[] = [];
      const pruned: string[] = [];
      for (const entry of entries.slice(0, limit)) {
        const path = join(decision.path, entry.name);
        if (entry.isSymbolicLink()) {
          const target = policy.decide(path, "list");
          if (!target.allowed) {
            pruned.push(path);
            lines.push(`${entry.name} (symlink blocked by host policy)`);
            continue;
          }
          const stat = await ops.stat(target.path).catch(() => undefined);
          lines.push(stat?.isDirectory() ? `${entry.name}/` : entry.name);
        } else if (entry.isDirectory()) {
          if (policy.markerIn(path) !== "none") {
            pruned.push(policy.canonical(path));
            lines.push(`${entry.name}/ (excluded by host policy; not listed)`);
          } else lines.push(`${entry.name}/`);
        } else lines.push(entry.name);
      }
      const details = {
        path: decision.path,
        ...prunedDetails(pruned),
        ...(entries.length > limit ? { entryLimitReached: limit } : {}),
      };
      if (lines.length === 0) return textResult("(empty directory)", details);
      const capped = capOutput(lines);
      return textResult(
        withNotes(capped.text, [
          entries.length > limit ? `${limit} entries limit reached. Use limit=${limit * 2} for more.` : undefined,
          capped.truncated ? `${formatSize(MAX_BYTES)} limit reached.` : undefined,
        ]),
        details,
      );
    },
  };
}
