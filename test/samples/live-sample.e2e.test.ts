/**
 * The evidence sample recorded live: `evidence-samples/live-guidance-session.jsonl` was written by `pi-context` on the
 * real host (Pi 0.73.1, offline faux provider) with the run below, and is kept as recorded. The test checks that
 * `check` reproduces every request it recorded, and that replay, view and check still give the committed outputs.
 * Re-record (after a change that alters what the kit writes): `RECORD_LIVE_SAMPLE=1 npx vitest run --config
 * test/vitest.config.ts test/samples/live-sample.e2e.test.ts`, then review the diff.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KIT } from "../../reducers/contract/kit-entries.js";
import { runCli } from "../../src/cli/run.js";
import { cleanupCliSandboxes, createCliSandbox, runNodeCli } from "../helpers/faux-cli.js";
import { compareGolden } from "../helpers/golden.js";

const DIR = join(import.meta.dirname, "../../evidence-samples");
const NAME = "live-guidance-session.jsonl";
const ENTRY = join(import.meta.dirname, "../helpers/pi-context-faux.mjs");
const RECORD = process.env.RECORD_LIVE_SAMPLE === "1";
const UPDATE = RECORD || process.env.UPDATE_SAMPLES === "1";

afterAll(() => cleanupCliSandboxes());

const call = (name: string, args: Record<string, unknown>) => ({ text: `Using ${name}.`, toolCalls: [{ name, args }] });

async function record(): Promise<void> {
  const sandbox = createCliSandbox({
    files: {
      "AGENTS.md": "Project rule: keep functions small.\n",
      "generated/.context-exclude": "Generated client code: read openapi/spec.yaml instead.\n",
      "generated/client.ts": "export const client = 1;\n",
      "src/app.ts": "export const answer = 41;\n",
    },
  });
  const file = join(sandbox.root, NAME);
  const run = (prompt: string, script: object[]) =>
    runNodeCli({
      entry: ENTRY,
      sandbox,
      timeoutMs: 60_000,
      args: ["--model", "faux/faux-1", "--session", file, "-p", prompt],
      script,
    });
  const first = await run("What does the app export?", [
    call("read", { path: "generated/client.ts" }),
    call("read", { path: "src/app.ts" }),
    { text: "It exports answer = 41." },
  ]);
  expect(first.exitCode).toBe(0);
  writeFileSync(join(sandbox.cwd, "AGENTS.md"), "Project rule: name every constant.\n");
  const second = await run("And what should change?", [{ text: "Name the constant; 41 stays." }]);
  expect(second.exitCode).toBe(0);
  copyFileSync(file, join(DIR, NAME));
}

function compareOrWrite(path: string, actual: string): void {
  compareGolden(path, actual, UPDATE);
}

describe("the live evidence sample", () => {
  it("check reproduces every request the session recorded", async () => {
    if (RECORD) await record();
    const out = await runCli(["check", NAME, "--json"], { cwd: DIR });
    expect(out.exitCode).toBe(0);
    const file = JSON.parse(out.stdout).files[0];
    expect(file.requests).toEqual({ recorded: 4, verified: 4, differs: 0, otherVersion: 0, unresolved: 0 });
    expect(file.violations).toEqual([]);
  }, 120_000);

  it("records its requests in the current digest format", () => {
    const types = readFileSync(join(DIR, NAME), "utf8").match(/context-kit\/request-digest\/v\d/g);
    expect(new Set(types)).toEqual(new Set([KIT.requestDigest]));
  });

  it.each(["replay", "view", "check"])("matches its expected `%s --json` output", async (command) => {
    const out = await runCli([command, NAME, "--json"], { cwd: DIR });
    expect(out.exitCode).toBe(0);
    compareOrWrite(join(DIR, NAME.replace(/\.jsonl$/, `.${command}.json`)), out.stdout);
  });
});

/** The same run as recorded by an earlier kit, with `context-kit/request-digest/v1` entries (one hash over all). */
const V1 = join(import.meta.dirname, "fixtures/live-guidance-session.v1.jsonl");
const FIXTURES = join(import.meta.dirname, "fixtures");

describe("a session recorded with v1 request digests", () => {
  it("check still reproduces every request it recorded", async () => {
    const out = await runCli(["check", V1, "--json"], { cwd: FIXTURES });
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout).files[0].requests).toEqual({
      recorded: 4,
      verified: 4,
      differs: 0,
      otherVersion: 0,
      unresolved: 0,
    });
  });

  it("check names the request whose message was changed by one byte", async () => {
    const sandbox = createCliSandbox({});
    const text = readFileSync(V1, "utf8");
    const changed = text.replace("export const answer = 41;", "export const answer = 42;");
    expect(changed).not.toBe(text);
    writeFileSync(join(sandbox.root, "changed.jsonl"), changed);
    const out = await runCli(["check", "changed.jsonl"], { cwd: sandbox.root });
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toMatch(/REQUEST_DIFFERS: request 3 /);
  });
});
