import { displayPath } from "./display-path.js";
import { loadFile } from "./file-inspect.js";
import { fileIssueResult } from "./file-issue-result.js";
import { inputIssue } from "./issues.js";
import { guardedPath } from "./path-arg.js";
import { type ReadParams, readSchema } from "./schemas.js";
import { MAX_BYTES, MAX_LINES, windowText } from "./text-window.js";
import type { ToolDeps } from "./tool-deps.js";
import { type ToolDefinition, textResult, throwIfAborted } from "./tool-types.js";

export function createReadTool(deps: ToolDeps): ToolDefinition<ReadParams> {
  const { policy, ops, limits } = deps;
  return {
    name: "read",
    label: "read",
    description:
      "Read the contents of a file. Supports text files and images (jpg, png, gif, webp). Images are sent as " +
      `attachments. For text files, output is truncated to ${MAX_LINES} lines or ${MAX_BYTES / 1024}KB (whichever is ` +
      "hit first). Use offset/limit for large files. When you need the full file, continue with offset until " +
      "complete. Directories excluded by a .context-exclude marker and paths outside the project are not readable.",
    promptSnippet: "Read file contents",
    parameters: readSchema,
    async execute(_id, params, signal) {
      throwIfAborted(signal);
      const decision = guardedPath(deps, "read", params?.path, "read");
      if (!decision.ok) return decision.result;
      const loaded = await loadFile(decision.path, ops, limits, true);
      throwIfAborted(signal);
      if (loaded.kind === "issue") return fileIssueResult(loaded, decision.path, policy.root);
      const details = { path: decision.path };
      if (loaded.kind === "image") {
        return {
          content: [
            { type: "text", text: `Read image file [${loaded.mimeType}]` },
            { type: "image", data: loaded.data.toString("base64"), mimeType: loaded.mimeType },
          ],
          details,
        };
      }
      const text = loaded.text.startsWith("\uFEFF") ? loaded.text.slice(1) : loaded.text;
      const window = windowText(text, params.offset, params.limit);
      if (!window.ok) {
        return inputIssue(
          "OFFSET_OUT_OF_RANGE",
          `Offset ${params.offset} is beyond the end of ${displayPath(policy.root, decision.path)} (${window.totalLines} lines total).`,
          { path: decision.path },
        );
      }
      return textResult(window.text, details);
    },
  };
}
