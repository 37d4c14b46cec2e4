import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KIT } from "../../reducers/contract/kit-entries.js";
import { HOST_TOOLS_CONFIG } from "../../src/tools/host-capabilities.js";
import { cleanupCliSandboxes, createCliSandbox, runNodeCli, runPi } from "../helpers/faux-cli.js";
import { HOST1_CLI, KIT_EXTENSION, kitPrompts, SKIP_HOST1 } from "./lane.js";

afterAll(() => cleanupCliSandboxes());

const ROOT = join(import.meta.dirname, "../..");
const CONTEXT_KIT = join(ROOT, "dist/src/cli/main.js");
const APP_CHECKS = join(ROOT, "dist/src/tools/examples/app-checks.js");

type Stored = { type: string; customType?: string; message?: { role?: string } };

/** A project whose build and test scripts pass, with the example `app_build`/`app_test` host capabilities. */
function verifiedProject() {
  const sandbox = createCliSandbox({
    files: {
      "package.json": JSON.stringify({
        name: "p",
        private: true,
        scripts: { build: "node -e 0", test: "node --test" },
      }),
      "add.test.mjs": 'import test from "node:test";\ntest("adds", () => {});\n',
    },
  });
  writeFileSync(join(sandbox.agentDir, "checks.mjs"), `export { createTools } from ${JSON.stringify(APP_CHECKS)};\n`);
  writeFileSync(
    join(sandbox.agentDir, HOST_TOOLS_CONFIG),
    JSON.stringify({ version: 1, modules: [join(sandbox.agentDir, "checks.mjs")] }),
  );
  return sandbox;
}

describe.skipIf(SKIP_HOST1)("end-of-run work at the host's settle boundary (agent_before_settle)", () => {
  it("an edit in print mode: the completion report is a boundary entry, the run continues once, exit 0", async () => {
    const sandbox = verifiedProject();
    const file = join(sandbox.root, "verify.jsonl");
    const run = await runPi({
      sandbox,
      entry: HOST1_CLI,
      extraExtensions: [KIT_EXTENSION],
      timeoutMs: 60_000,
      args: ["--session", file, "-p", "Write notes.txt."],
      script: [
        { text: "Writing it.", toolCalls: [{ name: "write", args: { path: "notes.txt", content: "hi\n" } }] },
        { text: "Done." },
        { text: "Both checks passed; notes.txt is written." },
      ],
    });
    expect(run.stderr).not.toMatch(/context-kit\]/);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("Both checks passed");
    const entries = run.entries() as Stored[];
    const reports = entries.filter((e) => e.type === "custom_message" && e.customType === KIT.completionReport);
    expect(reports).toHaveLength(1);
    // One continuation: the third request answers the report, nothing follows it.
    expect(run.requests).toHaveLength(3);
    expect(run.requests[2]!.messages.at(-1)!.text).toMatch(/^Completion report \(revision 1, verification round 1\)/);
    const check = await runNodeCli({ entry: CONTEXT_KIT, args: ["check", file], sandbox, timeoutMs: 30_000 });
    expect(check.stdout + check.stderr).not.toMatch(/differs/);
    expect(check.exitCode).toBe(0);
  }, 90_000);

  it("a stall in print mode: the marker is a boundary entry and the recovered run's answer is printed", async () => {
    const sandbox = createCliSandbox();
    const file = join(sandbox.root, "stall.jsonl");
    const promise = "Let me check the compiler errors first.";
    const prompt = kitPrompts(sandbox, file);
    await prompt("Describe the scenarios.", [{ text: promise }]);
    await prompt("Scenarios please.", [{ text: promise }]);
    const third = await prompt("Scenarios now.", [{ text: promise }, { text: "Here are the scenarios." }]);
    expect(third.exitCode).toBe(0);
    // Print mode prints the last reply of the settled run: the answer after the recovery, not the promise.
    expect(third.stdout).toContain("Here are the scenarios.");
    const entries = third.entries() as Stored[];
    const markerAt = entries.findIndex((e) => e.type === "custom_message" && e.customType === KIT.recoveryMarker);
    expect(markerAt).toBeGreaterThan(0);
    expect(entries.slice(markerAt + 1).some((e) => e.message?.role === "assistant")).toBe(true);
  }, 120_000);
});
