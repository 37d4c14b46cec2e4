import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KIT, TOOL_LOOP_PREFIX, TOOL_LOOP_REFUSED, TOOL_LOOP_STOP_CODE } from "../../reducers/contract/kit-entries.js";
import { cleanupCliSandboxes, createCliSandbox, runNodeCli } from "../helpers/faux-cli.js";
import { HOST1_ENV, LAUNCHER_FAUX, SKIP_HOST1 } from "./lane.js";

afterAll(() => cleanupCliSandboxes());

type Stored = { type: string; customType?: string; content?: unknown; message?: Record<string, unknown> };
const kinds = (entries: Record<string, unknown>[]) =>
  (entries as Stored[])
    .filter((e) => e.type === "message" || e.type === "custom_message")
    .filter((e) => e.message?.role !== "system")
    .map((e) =>
      e.type === "message" ? `${e.message?.role}:${e.message?.stopReason ?? ""}` : `custom_message:${e.customType}`,
    );
const readStep = (path: string) => ({ text: "", toolCalls: [{ name: "read", args: { path } }] });

/** `pi-context` on the 1.x CLI in print mode, with the faux model. */
const runLoop = (sandbox: ReturnType<typeof createCliSandbox>, prompt: string, script: object[]) =>
  runNodeCli({
    entry: LAUNCHER_FAUX,
    sandbox,
    env: HOST1_ENV,
    timeoutMs: 60_000,
    args: ["--model", "faux/faux-1", "--session", join(sandbox.root, "loop.jsonl"), "-p", prompt],
    script: script as never,
  });

describe.skipIf(SKIP_HOST1)("tool-call loops with pi-context on the Pi 1.x line", () => {
  it("a model repeating a read gets the marker, then the refusal and the stop", async () => {
    const sandbox = createCliSandbox({ files: { "config.json": '{"port": 8080}\n' } });
    const run = await runLoop(sandbox, "Which port does config.json set?", [
      ...Array.from({ length: 7 }, () => readStep("config.json")),
      { text: "unreachable" },
    ]);
    expect(run.stderr).not.toMatch(/context-kit\]/);
    const entries = run.entries() as Stored[];
    // The run ends with the aborted request (1.x records the abort as stopReason "error", "This operation was aborted").
    const last = entries.at(-1)?.message;
    expect(String(last?.stopReason ?? "") + String(last?.errorMessage ?? "")).toMatch(/^aborted|^error.*aborted/i);
    expect(kinds(entries).slice(0, -1)).toEqual([
      "user:",
      ...Array.from({ length: 4 }, () => ["assistant:toolUse", "toolResult:"]).flat(),
      `custom_message:${KIT.toolLoopMarker}`,
      "assistant:toolUse",
      "toolResult:",
      `custom_message:${KIT.toolLoopStop}`,
    ]);
    const marker = entries.find((e) => e.customType === KIT.toolLoopMarker);
    expect(String(marker?.content)).toMatch(new RegExp(`^${TOOL_LOOP_PREFIX}: .*\\(repeat\\)`));
    expect(run.requests[4]?.messages.some((m) => m.text.startsWith(TOOL_LOOP_PREFIX))).toBe(true);
    const refused = entries.filter((e) => e.message?.role === "toolResult").at(-1)?.message;
    expect(refused?.isError).toBe(true);
    expect(JSON.stringify(refused?.content)).toContain(TOOL_LOOP_REFUSED);
    const stop = entries.find((e) => e.customType === KIT.toolLoopStop);
    expect(String(stop?.content)).toMatch(new RegExp(`^${TOOL_LOOP_STOP_CODE}`));
    expect(run.stdout).not.toContain("unreachable");
  });

  it("a model polling a file that changes gets neither", async () => {
    const sandbox = createCliSandbox({ files: { "build.log": "compiled 0 modules\n" } });
    const run = await runLoop(sandbox, "Wait until the build log says it is done.", [
      ...Array.from({ length: 6 }, (_, i) => ({
        ...readStep("build.log"),
        files: { "build.log": `compiled ${i + 1} modules\n` },
      })),
      { text: "The build is done." },
    ]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("The build is done.");
    const entries = run.entries() as Stored[];
    expect(entries.filter((e) => e.type === "custom_message")).toHaveLength(0);
    const results = entries.filter((e) => e.message?.role === "toolResult").map((e) => e.message);
    expect(results).toHaveLength(6);
    expect(results.every((m) => m?.isError === false)).toBe(true);
  });
});
