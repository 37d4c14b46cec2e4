import { denialResult } from "./denial-result.js";
import { displayPath } from "./display-path.js";
import { inputIssue } from "./issues.js";
import { mutationProblem, writeFailure } from "./mutation-guard.js";
import { pathArgProblem } from "./path-arg.js";
import { type WriteParams, writeSchema } from "./schemas.js";
import type { ToolDeps } from "./tool-deps.js";
import { type ToolDefinition, textResult, throwIfAborted } from "./tool-types.js";

export function createWriteTool(deps: ToolDeps): ToolDefinition<WriteParams> {
  const { policy, ops } = deps;
  return {
    name: "write",
    label: "write",
    description:
      "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. The parent directory " +
      "must already exist. Excluded directories, control folders (.git, .pi, .agents), .context-exclude markers and symlinks are never written.",
    promptSnippet: "Create or overwrite files",
    parameters: writeSchema,
    async execute(_id, params, signal) {
      throwIfAborted(signal);
      const bad = pathArgProblem("write", params?.path);
      if (bad) return bad;
      if (typeof params.content !== "string") return inputIssue("INVALID_ARGUMENT", "write needs a string `content`.");
      const first = policy.decide(params.path, "write");
      if (!first.allowed) return denialResult(first, policy, deps.denials);
      return deps.queue(first.path, async () => {
        const decision = policy.decide(params.path, "write");
        if (!decision.allowed) return denialResult(decision, policy, deps.denials);
        const problem = await mutationProblem(decision, deps, "write");
        if (problem) return problem;
        throwIfAborted(signal);
        try {
          await ops.writeFile(decision.path, params.content);
        } catch (error) {
          return writeFailure(error, decision.path, policy.root, "write");
        }
        const bytes = Buffer.byteLength(params.content, "utf8");
        return textResult(`Successfully wrote ${bytes} bytes to ${displayPath(policy.root, decision.path)}`, {
          path: decision.path,
          mutated: true,
        });
      });
    },
  };
}
