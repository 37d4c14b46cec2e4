/**
 * A test extension for the 1.x lane: `batch` runs each of its `calls` through `ctx.executeTool`, the way codemode
 * scripts and MCP bridges make nested calls (Pi 0.99+). Plain JSON schema: no TypeBox import needed.
 */
export default function nestedToolExtension(pi) {
  pi.registerTool({
    name: "batch",
    label: "Batch",
    description: "Runs several tool calls in order and reports each outcome.",
    parameters: {
      type: "object",
      properties: {
        calls: {
          type: "array",
          items: {
            type: "object",
            properties: { name: { type: "string" }, args: { type: "object" } },
            required: ["name", "args"],
          },
        },
      },
      required: ["calls"],
    },
    async execute(_id, params, _signal, _onUpdate, ctx) {
      const lines = [];
      for (const call of params.calls) {
        const outcome = await ctx.executeTool(call.name, call.args);
        const result = outcome.result ?? outcome;
        const text = (result.content ?? []).map((c) => c.text ?? "").join("\n");
        lines.push(`${call.name}: ${outcome.isError ? "error" : "ok"} ${text.slice(0, 80)}`);
      }
      return { content: [{ type: "text", text: lines.join("\n") }], details: {} };
    },
  });
}
