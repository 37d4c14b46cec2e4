import "../helpers/faux-env.js";
import { join } from "node:path";
import type { ExtensionFactory } from "@mariozechner/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { createKitExtension } from "../../src/pi/kit-extension.js";
import { cleanupCliSandboxes, createCliSandbox, runNodeCli } from "../helpers/faux-cli.js";
import { cleanupFauxHarnesses, createFauxHarness } from "../helpers/faux-sdk.js";
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

afterAll(() => {
  cleanupFauxHarnesses();
  cleanupCliSandboxes();
});

const PI_CONTEXT_FAUX = join(import.meta.dirname, "../helpers/pi-context-faux.mjs");

describe("tool-call loops on the real host, 0.73 SDK", () => {
  it("a model repeating a read gets the marker, then the refusal and the stop", async () => {
    const h = await createFauxHarness({ files: REPEAT.files, extensionFactories: [createKitExtension()] });
    h.script(REPEAT.script);
    await h.prompt(REPEAT.prompt);
    expectMarkerRefusalStop(h.entries(), h.requests);
    await expectCheckClean(h.entries());
    expect(h.lastText()).not.toBe("unreachable");
    await h.dispose();
  });

  it("a tool reporting the same soft error with a new run id each time is a repeated failure", async () => {
    const softErrorTool = (await import(SOFT_ERROR_TOOL)).default as ExtensionFactory;
    const h = await createFauxHarness({
      files: SOFT_ERROR.files,
      extensionFactories: [createKitExtension(), softErrorTool],
    });
    h.script(SOFT_ERROR.script);
    await h.prompt(SOFT_ERROR.prompt);
    expectLoopMarked(h.entries(), "repeated-failure", 3, 'message {"action":"send"');
    expectIdOnlyChanges(h.entries());
    await expectCheckClean(h.entries());
    await h.dispose();
  });

  it("one file written v1, v2, v1, v2, v1, v2 is a ping-pong", async () => {
    const h = await createFauxHarness({ files: WRITE_FLIP.files, extensionFactories: [createKitExtension()] });
    h.script(WRITE_FLIP.script);
    await h.prompt(WRITE_FLIP.prompt);
    expectLoopMarked(h.entries(), "ping-pong", 6, "write");
    await expectCheckClean(h.entries());
    await h.dispose();
  });

  it("the same reads answering two user messages are not a loop", async () => {
    const h = await createFauxHarness({ files: USER_RETRY.files, extensionFactories: [createKitExtension()] });
    h.script(USER_RETRY.scripts[0]);
    await h.prompt(USER_RETRY.prompts[0]);
    h.script(USER_RETRY.scripts[1]);
    await h.prompt(USER_RETRY.prompts[1]);
    expectUserRetryNoLoop(h.entries());
    expect(h.lastText()).toBe("Still port 8080.");
    await expectCheckClean(h.entries());
    await h.dispose();
  });

  it("a model polling a file that changes gets neither", async () => {
    const h = await createFauxHarness({ files: POLL.files, extensionFactories: [createKitExtension()] });
    h.script(POLL.script);
    await h.prompt(POLL.prompt);
    expectNoLoop(h.entries());
    await expectCheckClean(h.entries());
    expect(h.lastText()).toBe("The build is done.");
    await h.dispose();
  });
});

describe("tool-call loops with pi-context on the 0.73 CLI (print mode)", () => {
  async function run(scenario: LoopScenario) {
    const sandbox = createCliSandbox({ files: scenario.files });
    return runNodeCli({
      entry: PI_CONTEXT_FAUX,
      sandbox,
      timeoutMs: 60_000,
      args: ["--model", "faux/faux-1", "--session", join(sandbox.root, "loop.jsonl"), "-p", scenario.prompt],
      script: scenario.script,
    });
  }

  it("a model repeating a read gets the marker, then the refusal and the stop; exit 1 (the run was aborted)", async () => {
    const r = await run(REPEAT);
    expect(r.stderr).not.toMatch(/context-kit\]/);
    expectMarkerRefusalStop(r.entries(), r.requests);
    await expectCheckClean(r.entries());
    expect(r.exitCode).toBe(1);
  });

  it("one file written v1, v2, v1, v2, v1, v2 is a ping-pong", async () => {
    const r = await run(WRITE_FLIP);
    expect(r.stderr).not.toMatch(/context-kit\]/);
    expectLoopMarked(r.entries(), "ping-pong", 6, "write");
    await expectCheckClean(r.entries());
  });

  it("a model polling a file that changes gets neither", async () => {
    const r = await run(POLL);
    expect(r.exitCode).toBe(0);
    expectNoLoop(r.entries());
    await expectCheckClean(r.entries());
  });
});
