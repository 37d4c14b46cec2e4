import "../helpers/faux-env.js";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createKitExtension } from "../../src/pi/kit-extension.js";
import { cleanupCliSandboxes, createCliSandbox, runNodeCli } from "../helpers/faux-cli.js";
import { cleanupFauxHarnesses, createFauxHarness } from "../helpers/faux-sdk.js";
import {
  expectCheckClean,
  expectMarkerRefusalStop,
  expectNoLoop,
  type LoopScenario,
  POLL,
  REPEAT,
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

  it("a model polling a file that changes gets neither", async () => {
    const r = await run(POLL);
    expect(r.exitCode).toBe(0);
    expectNoLoop(r.entries());
    await expectCheckClean(r.entries());
  });
});
