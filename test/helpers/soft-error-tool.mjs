/**
 * A test extension with an OpenClaw-style `message` tool: it reports failure in its text as
 * `{"status":"error", …}` without the error flag, with a new generated run id on every call.
 */
let calls = 0;
export default function softErrorTool(pi) {
  pi.registerTool({
    name: "message",
    label: "Message",
    description: "Send a message to a chat channel.",
    parameters: {
      type: "object",
      properties: { action: { type: "string" }, message: { type: "string" }, target: { type: "string" } },
      required: ["action"],
    },
    async execute(_toolCallId, params) {
      calls++;
      const runId = `run-${process.pid}-${calls}-${Math.random().toString(36).slice(2, 10)}`;
      const body = params.target
        ? { status: "ok", runId }
        : { status: "error", tool: "message", error: "Action send requires a target.", runId };
      return { content: [{ type: "text", text: JSON.stringify(body, null, 2) }], details: {} };
    },
  });
}
