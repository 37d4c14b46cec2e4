import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadHostModule } from "../../src/pi/host.js";
import { cleanupCliSandboxes, createCliSandbox, runNodeCli, runPi } from "../helpers/faux-cli.js";
import { expectViewsReproduceRequests } from "../helpers/recorded-requests.js";
import {
  expectCheckClean,
  expectIdOnlyChanges,
  expectLoopMarked,
  expectMarkerRefusalStop,
  expectNoLoop,
  expectUserRetryNoLoop,
  type LoopScenario,
  POLL,
  REPEAT,
  SOFT_ERROR,
  SOFT_ERROR_TOOL,
  USER_RETRY,
  WRITE_FLIP,
} from "../helpers/tool-loop-scenarios.js";
import { HOST1, HOST1_CLI, HOST1_ENV, KIT_EXTENSION, LAUNCHER_FAUX, SKIP_HOST1 } from "./lane.js";

afterAll(() => cleanupCliSandboxes());

/** `pi-context` on the 1.x CLI in print mode, with the faux model. */
async function run(scenario: LoopScenario) {
  const sandbox = createCliSandbox({ files: scenario.files });
  return runNodeCli({
    entry: LAUNCHER_FAUX,
    sandbox,
    env: HOST1_ENV,
    timeoutMs: 60_000,
    args: ["--model", "faux/faux-1", "--session", join(sandbox.root, "loop.jsonl"), "-p", scenario.prompt],
    script: scenario.script,
  });
}

describe.skipIf(SKIP_HOST1)("tool-call loops with pi-context on the Pi 1.x line", () => {
  it("a model repeating a read gets the marker, then the refusal and the stop", async () => {
    const r = await run(REPEAT);
    expect(r.stderr).not.toMatch(/context-kit\]/);
    expectMarkerRefusalStop(r.entries(), r.requests);
    expect(r.stdout).not.toContain("unreachable");
    await expectCheckClean(r.entries());
    const { convertToLlm } = (await loadHostModule(HOST1!)) as { convertToLlm: never };
    // The request after the stop is recorded, then aborted before the provider is asked.
    expectViewsReproduceRequests(r.sessionFile as string, r.requests, convertToLlm, 1);
  });

  it("a model polling a file that changes gets neither", async () => {
    const r = await run(POLL);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("The build is done.");
    expectNoLoop(r.entries());
    await expectCheckClean(r.entries());
    const { convertToLlm } = (await loadHostModule(HOST1!)) as { convertToLlm: never };
    expectViewsReproduceRequests(r.sessionFile as string, r.requests, convertToLlm);
  });
});

describe.skipIf(SKIP_HOST1)("tool-call loops with the kit as a `pi -e` extension on the Pi 1.x CLI", () => {
  it("a model repeating a read, with a root AGENTS.md: every recorded request is reproduced and check passes", async () => {
    const sandbox = createCliSandbox({
      files: { ...REPEAT.files, "AGENTS.md": "Project rule: read before you write.\n" },
    });
    const file = join(sandbox.root, "loop.jsonl");
    const r = await runPi({
      sandbox,
      entry: HOST1_CLI,
      extraExtensions: [KIT_EXTENSION],
      timeoutMs: 60_000,
      args: ["--session", file, "-p", REPEAT.prompt],
      script: REPEAT.script,
    });
    expect(r.stderr).not.toMatch(/context-kit\]/);
    expectMarkerRefusalStop(r.entries(), r.requests);
    await expectCheckClean(r.entries());
    const { convertToLlm } = (await loadHostModule(HOST1!)) as { convertToLlm: never };
    expectViewsReproduceRequests(file, r.requests, convertToLlm, 1);
  });
});

describe.skipIf(SKIP_HOST1)("the loop definitions on the Pi 1.x CLI", () => {
  it("a tool reporting the same soft error with a new run id each time is a repeated failure", async () => {
    const sandbox = createCliSandbox({ files: SOFT_ERROR.files });
    const file = join(sandbox.root, "loop.jsonl");
    const r = await runPi({
      sandbox,
      entry: HOST1_CLI,
      extraExtensions: [KIT_EXTENSION, SOFT_ERROR_TOOL],
      timeoutMs: 60_000,
      args: ["--session", file, "-p", SOFT_ERROR.prompt],
      script: SOFT_ERROR.script,
    });
    expect(r.stderr).not.toMatch(/context-kit\]/);
    expectLoopMarked(r.entries(), "repeated-failure", 3, 'message {"action":"send"');
    expectIdOnlyChanges(r.entries());
    await expectCheckClean(r.entries());
  });

  it("one file written v1, v2, v1, v2, v1, v2 is a ping-pong", async () => {
    const r = await run(WRITE_FLIP);
    expect(r.stderr).not.toMatch(/context-kit\]/);
    expectLoopMarked(r.entries(), "ping-pong", 6, "write");
    await expectCheckClean(r.entries());
  });

  it("the same reads answering two user messages (two runs on one session) are not a loop", async () => {
    const sandbox = createCliSandbox({ files: USER_RETRY.files });
    const file = join(sandbox.root, "retry.jsonl");
    for (const i of [0, 1] as const) {
      const r = await runNodeCli({
        entry: LAUNCHER_FAUX,
        sandbox,
        env: HOST1_ENV,
        timeoutMs: 60_000,
        args: ["--model", "faux/faux-1", "--session", file, "-p", USER_RETRY.prompts[i]],
        script: USER_RETRY.scripts[i],
      });
      expect(r.exitCode).toBe(0);
      if (i === 1) {
        expect(r.stdout).toContain("Still port 8080.");
        expectUserRetryNoLoop(r.entries());
        await expectCheckClean(r.entries());
      }
    }
  });
});
