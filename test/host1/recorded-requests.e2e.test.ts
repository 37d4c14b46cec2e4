import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KIT } from "../../reducers/contract/kit-entries.js";
import { runCli } from "../../src/cli/run.js";
import { loadHostModule } from "../../src/pi/host.js";
import { cleanupCliSandboxes, createCliSandbox, requestText, runNodeCli } from "../helpers/faux-cli.js";
import { expectViewsReproduceRequests } from "../helpers/recorded-requests.js";
import { HOST1, HOST1_ENV, LAUNCHER_FAUX, SKIP_HOST1 } from "./lane.js";

afterAll(() => cleanupCliSandboxes());

const call = (name: string, args: Record<string, unknown>) => ({ text: `Using ${name}.`, toolCalls: [{ name, args }] });

describe.skipIf(SKIP_HOST1)("on the Pi 1.x line, view reproduces every request and check proves it", () => {
  it("a denial and an allowed read with root guidance, then AGENTS.md changes before the next run", async () => {
    const { convertToLlm } = (await loadHostModule(HOST1!)) as { convertToLlm: never };
    const sandbox = createCliSandbox({
      files: {
        "AGENTS.md": "Project rule: keep functions small.\n",
        "generated/.context-exclude": "Generated code: read the spec instead.\n",
        "generated/client.ts": "export const client = 1;\n",
        "src/app.ts": "export const answer = 41;\n",
      },
    });
    const file = join(sandbox.root, "session.jsonl");
    const run = (prompt: string, script: object[]) =>
      runNodeCli({
        entry: LAUNCHER_FAUX,
        sandbox,
        env: HOST1_ENV,
        timeoutMs: 60_000,
        args: ["--model", "faux/faux-1", "--session", file, "-p", prompt],
        script,
      });
    const first = await run("Look around.", [
      call("read", { path: "generated/client.ts" }),
      call("read", { path: "src/app.ts" }),
      { text: "Done." },
    ]);
    expect(first.stderr).not.toMatch(/context-kit\]/);
    expect(first.exitCode).toBe(0);
    writeFileSync(join(sandbox.cwd, "AGENTS.md"), "Project rule: name every constant.\n");
    const second = await run("Again, please.", [call("read", { path: "src/app.ts" }), { text: "Done again." }]);
    expect(second.exitCode).toBe(0);

    expect(requestText(first.requests[1]!)).toContain("Host policy reminder");
    expect(requestText(second.requests[0]!)).toContain("name every constant");
    const guidance = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { customType?: string })
      .filter((e) => e.customType === KIT.rootGuidance);
    expect(guidance).toHaveLength(2);
    const requests = [...first.requests, ...second.requests];
    expect(expectViewsReproduceRequests(file, requests, convertToLlm)).toBe(5);
    const check = await runCli(["check", file], { cwd: sandbox.root });
    expect(check.stdout).toContain("5 of 5 recorded requests reproduced");
    expect(check.exitCode).toBe(0);
  }, 150_000);
});
