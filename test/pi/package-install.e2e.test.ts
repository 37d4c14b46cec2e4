import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupCliSandboxes, createCliSandbox, PI_CLI_JS, runNodeCli, runPi } from "../helpers/faux-cli.js";

const ROOT = join(import.meta.dirname, "../..");

afterAll(() => cleanupCliSandboxes());

describe("the kit as a pi package", () => {
  it("`pi install <kit>` registers it, and the next run has the kit's tools and no shell", async () => {
    const sandbox = createCliSandbox({
      files: { "vendor/.context-exclude": "Third-party code.\n", "vendor/lib.js": "x\n" },
    });
    const install = await runNodeCli({ entry: PI_CLI_JS, sandbox, args: ["install", ROOT], timeoutMs: 60_000 });
    expect(install.exitCode).toBe(0);
    const settings = JSON.parse(readFileSync(join(sandbox.agentDir, "settings.json"), "utf8"));
    expect(settings.packages).toHaveLength(1);

    const run = await runPi({
      sandbox,
      timeoutMs: 60_000,
      flags: ["--no-skills", "--no-context-files", "--no-prompt-templates", "--no-themes"],
      args: ["-p", "Look at vendor."],
      script: [{ text: "Listing.", toolCalls: [{ name: "ls", args: { path: "vendor" } }] }, { text: "Done." }],
    });
    expect(run.exitCode).toBe(0);
    expect(run.requests[0]!.tools.sort()).toEqual(["edit", "find", "grep", "ls", "read", "write"]);
    const result = run.requests[1]!.messages.find((m) => m.role === "toolResult")!;
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Third-party code.");
  }, 120_000);
});
