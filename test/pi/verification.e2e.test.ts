import "../helpers/faux-env.js";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type CompletionReportDetails,
  INCOMPLETE_CODE,
  KIT,
  type VerificationIncompleteDetails,
} from "../../reducers/contract/kit-entries.js";
import { runCli } from "../../src/cli/run.js";
import { kitRecordOf } from "../../src/fold/kit-records.js";
import type { ReplayReport } from "../../src/fold/replay-report.js";
import type { StateSummary } from "../../src/fold/state-summary.js";
import type { SessionEntry } from "../../src/log/entry-types.js";
import { HOST_TOOLS_CONFIG } from "../../src/tools/host-capabilities.js";
import {
  cleanupFauxHarnesses,
  createFauxHarness,
  type FauxHarness,
  type FauxRequest,
  type FauxScriptItem,
  type FauxStep,
  fauxError,
  pi,
} from "../helpers/faux-sdk.js";
import { expectViewsReproduceRequests } from "../helpers/recorded-requests.js";

/**
 * Completion verification end to end: the real host (in-process SDK, faux provider), the whole kit extension, and the
 * example host-tools module (`app_build` = `npm run --silent build`, `app_test` = `npm test --silent`) listed in the
 * agent dir's `context-kit-host-tools.json`, over a small fixture project whose build and test scripts count their
 * runs in log files.
 */

const base = realpathSync(mkdtempSync(join(tmpdir(), "ck-verify-")));
afterAll(() => {
  cleanupFauxHarnesses();
  rmSync(base, { recursive: true, force: true });
});

const EXAMPLE = join(import.meta.dirname, "..", "..", "src", "tools", "examples", "app-checks.ts");
const SOURCE = 'export const add = (a, b) => a + b;\nexport const version = "v0";\n';
const BUGGY = 'export const add = (a, b) => a - b;\nexport const version = "v0";\n';
const BUILD = [
  'import { appendFileSync } from "node:fs";',
  'appendFileSync("build-runs.log", "build\\n");',
  'await import("./src/math.mjs");',
  "",
].join("\n");
const ADD_TEST = [
  'import { appendFileSync } from "node:fs";',
  'import assert from "node:assert";',
  'import test from "node:test";',
  'import { add } from "../src/math.mjs";',
  'appendFileSync(new URL("../test-runs.log", import.meta.url), "test\\n");',
  'test("adds", () => assert.equal(add(1, 2), 3));',
  "",
].join("\n");

interface Fixture {
  cwd: string;
  agentDir: string;
  sessionFile: string;
  /** How often the project's build / test script ran. */
  runs(): { build: number; test: number };
  source(): string;
}

let fixtures = 0;
/** A project (package.json with `build` and `test` scripts run by plain node) and an agent dir with the example. */
function fixture(options: { source?: string; tests?: Record<string, string> } = {}): Fixture {
  const root = join(base, `f${++fixtures}`);
  const cwd = join(root, "project");
  const agentDir = join(root, "agent");
  mkdirSync(join(cwd, "src"), { recursive: true });
  mkdirSync(join(cwd, "test"), { recursive: true });
  mkdirSync(agentDir, { recursive: true });
  const scripts = { build: "node build.mjs", test: "node --test test/" };
  writeFileSync(
    join(cwd, "package.json"),
    JSON.stringify({ name: "fixture", version: "1.0.0", private: true, scripts }),
  );
  writeFileSync(join(cwd, "build.mjs"), BUILD);
  writeFileSync(join(cwd, "src", "math.mjs"), options.source ?? SOURCE);
  for (const [name, body] of Object.entries(options.tests ?? { "math.test.mjs": ADD_TEST })) {
    writeFileSync(join(cwd, "test", name), body);
  }
  // Host capabilities: a module under the agent dir re-exporting the example's createTools.
  writeFileSync(join(agentDir, "app-checks.mjs"), `export { createTools } from ${JSON.stringify(EXAMPLE)};\n`);
  writeFileSync(
    join(agentDir, HOST_TOOLS_CONFIG),
    JSON.stringify({ version: 1, modules: [join(agentDir, "app-checks.mjs")] }),
  );
  const count = (name: string) => {
    const file = join(cwd, name);
    return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0;
  };
  return {
    cwd,
    agentDir,
    sessionFile: join(root, "session.jsonl"),
    runs: () => ({ build: count("build-runs.log"), test: count("test-runs.log") }),
    source: () => readFileSync(join(cwd, "src", "math.mjs"), "utf8"),
  };
}

async function kitHarness(f: Fixture, script: FauxScriptItem[] = []): Promise<FauxHarness> {
  const { createKitExtension } = await import("../../src/pi/kit-extension.js");
  return createFauxHarness({
    cwd: f.cwd,
    sessionFile: f.sessionFile,
    extensionFactories: [createKitExtension({ policyRoot: f.cwd, agentDir: f.agentDir })],
    script,
    settleTimeoutMs: 60_000,
  });
}

const edit = (oldText: string, newText: string, text = "Editing src/math.mjs."): FauxStep => ({
  text,
  toolCalls: [{ name: "edit", args: { path: "src/math.mjs", edits: [{ oldText, newText }] } }],
});
const bump = (from: number): FauxStep => edit(`"v${from}"`, `"v${from + 1}"`, `Bumping the version to v${from + 1}.`);

type Entry = Record<string, unknown> & { message?: Record<string, unknown> };
const entriesOf = (h: FauxHarness) => h.entries() as Entry[];
const reports = (h: FauxHarness) =>
  entriesOf(h).filter((e) => e.type === "custom_message" && e.customType === KIT.completionReport);
const incompletes = (h: FauxHarness) =>
  entriesOf(h).filter((e) => e.type === "custom_message" && e.customType === KIT.verificationIncomplete);
const details = (e: Entry) => e.details as CompletionReportDetails;
/** Every kit entry in the file validates against its schema (only those steer the kit). */
const expectValid = (entries: Entry[]) => {
  for (const e of entries) expect(kitRecordOf(e as unknown as SessionEntry), JSON.stringify(e)).not.toBeNull();
};

/** The session file as a list of short labels (header and model/thinking entries left out). */
function shape(h: FauxHarness): string[] {
  return entriesOf(h).flatMap((e): string[] => {
    if (e.type === "custom_message") {
      if (e.customType === KIT.completionReport) return [`report r${details(e).revision}#${details(e).round}`];
      if (e.customType === KIT.verificationIncomplete) return ["INCOMPLETE"];
      return [`custom:${String(e.customType)}`];
    }
    if (e.type !== "message" || !e.message) return [];
    const m = e.message as { role: string; content?: { type: string; name?: string }[]; toolName?: string };
    if (m.role === "assistant") {
      const calls = (m.content ?? []).filter((b) => b.type === "toolCall").map((b) => b.name);
      const stop = (m as { stopReason?: string }).stopReason;
      return [
        `assistant${calls.length ? `(${calls.join(",")})` : ""}${stop === "error" || stop === "aborted" ? `:${stop}` : ""}`,
      ];
    }
    if (m.role === "toolResult")
      return [`result(${m.toolName})${(m as { isError?: boolean }).isError ? ":error" : ""}`];
    return [m.role];
  });
}

/** The last message the model received in a request (a host message reaches it as a user message). */
const lastReceived = (r: FauxRequest | undefined) => r?.messages.at(-1);

async function replayState(f: Fixture): Promise<StateSummary> {
  const out = await runCli(["replay", f.sessionFile, "--json"], { cwd: f.cwd });
  expect(out.exitCode, out.stderr).toBe(0);
  const report = (JSON.parse(out.stdout) as { files: ReplayReport[] }).files[0] as ReplayReport;
  const active = report.branches.find((b) => b.active);
  expect(active).toBeDefined();
  return (active as ReplayReport["branches"][number]).state;
}

/** Nothing is left to happen: no further request, report or host message arrives after a pause. */
async function expectQuiet(h: FauxHarness, ms = 300): Promise<void> {
  const before = { requests: h.requests.length, entries: h.entries().length };
  await new Promise((r) => setTimeout(r, ms));
  await h.settle();
  expect({ requests: h.requests.length, entries: h.entries().length }).toEqual(before);
}

// Each case waits on real npm runs (about 1-4 s each on a loaded machine); they run concurrently, with room to spare.
describe.concurrent("completion verification on the real host", { timeout: 240_000 }, () => {
  it("an edit then stop: one report with the real results, and the model continues with it", async () => {
    const f = fixture();
    const h = await kitHarness(f, [
      edit("a + b", "b + a"),
      { text: "Done: swapped the operands." },
      { text: "Build passed and the 1 test passed." },
    ]);
    await h.prompt("Swap the operands in add.");
    await expectQuiet(h);

    expect(h.extensionErrors).toEqual([]);
    expect(shape(h)).toEqual(["user", "assistant(edit)", "result(edit)", "assistant", "report r1#1", "assistant"]);
    const [report] = reports(h);
    expect(report?.display).toBe(true);
    expect(details(report as Entry)).toMatchObject({
      revision: 1,
      round: 1,
      checks: [
        { name: "app_build", status: "passed", by: "kit" },
        { name: "app_test", status: "passed", by: "kit", testsRun: 1 },
      ],
    });
    expect(f.runs()).toEqual({ build: 1, test: 1 });
    // The continuation: the model's next request ends with the report, as the host wrote it.
    expect(h.requests).toHaveLength(3);
    const received = lastReceived(h.requests[2]);
    expect(received?.role).toBe("user");
    expect(received?.text).toBe(report?.content);
    expect(received?.text).toContain("app_build: passed (run by kit)");
    expect(received?.text).toContain("app_test: passed, 1 tests ran (run by kit)");
    expect(h.lastText()).toBe("Build passed and the 1 test passed.");

    expectValid(reports(h));

    const state = await replayState(f);
    expect(state.verification).toMatchObject({
      revision: 1,
      checks: { app_build: { status: "passed", by: "kit" }, app_test: { status: "passed", by: "kit", testsRun: 1 } },
      roundsThisRequest: 1,
      incomplete: false,
    });
    const text = await runCli(["replay", f.sessionFile], { cwd: f.cwd });
    expect(text.stdout).toContain("verification r1: app_build passed, app_test passed (1 test); rounds 1");
    await h.dispose();
    expectViewsReproduceRequests(f.sessionFile, h.requests, pi.convertToLlm as never);
  });

  it("a failing test: the model repairs it, the repair is a new revision, and a new report follows", async () => {
    const f = fixture({ source: BUGGY });
    const h = await kitHarness(f, [
      edit('"v0"', '"v1"', "Bumping the version."),
      { text: "Version bumped." },
      edit("a - b", "a + b", "The test fails: add subtracts. Fixing it."),
      { text: "Fixed add." },
      { text: "Build and tests pass now." },
    ]);
    await h.prompt("Bump the version to v1.");
    await expectQuiet(h);

    expect(h.extensionErrors).toEqual([]);
    expect(shape(h)).toEqual([
      "user",
      "assistant(edit)",
      "result(edit)",
      "assistant",
      "report r1#1",
      "assistant(edit)",
      "result(edit)",
      "assistant",
      "report r2#2",
      "assistant",
    ]);
    const [first, second] = reports(h) as [Entry, Entry];
    expect(details(first).checks).toMatchObject([
      { name: "app_build", status: "passed" },
      { name: "app_test", status: "failed", testsRun: 1 },
    ]);
    expect(details(second).checks).toMatchObject([
      { name: "app_build", status: "passed" },
      { name: "app_test", status: "passed", testsRun: 1 },
    ]);
    // The failure reached the model before its repair; the new results reached it after.
    expect(lastReceived(h.requests[2])?.text).toContain("app_test: failed, 1 tests ran (run by kit)");
    expect(lastReceived(h.requests[2])?.text).toMatch(/not ok 1 - adds/);
    expect(lastReceived(h.requests[4])?.text).toContain("Completion report (revision 2, verification round 2)");
    expect(lastReceived(h.requests[4])?.text).toContain("app_test: passed, 1 tests ran (run by kit)");
    expect(h.requests).toHaveLength(5);
    expect(f.source()).toContain("a + b");
    expect(f.runs()).toEqual({ build: 2, test: 2 });

    const state = await replayState(f);
    expect(state.verification).toMatchObject({
      revision: 2,
      checks: { app_build: { status: "passed", revision: 2 }, app_test: { status: "passed", revision: 2 } },
      roundsThisRequest: 2,
    });
    await h.dispose();
    expectViewsReproduceRequests(f.sessionFile, h.requests, pi.convertToLlm as never);
  });

  it("a fourth unverified revision after three rounds: VERIFICATION_INCOMPLETE naming the missing checks, no continuation", async () => {
    const f = fixture();
    const h = await kitHarness(f, [
      bump(0),
      { text: "v1." },
      bump(1),
      { text: "v2." },
      bump(2),
      { text: "v3." },
      bump(3),
      { text: "v4." },
    ]);
    await h.prompt("Keep bumping the version.");
    await expectQuiet(h);

    expect(h.extensionErrors).toEqual([]);
    const rounds = shape(h).filter((s) => s.startsWith("report") || s === "INCOMPLETE");
    expect(rounds).toEqual(["report r1#1", "report r2#2", "report r3#3", "INCOMPLETE"]);
    expect(shape(h).at(-1)).toBe("INCOMPLETE");
    expectValid([...reports(h), ...incompletes(h)]);
    const incomplete = incompletes(h)[0] as Entry;
    expect(incomplete.display).toBe(true);
    expect(String(incomplete.content)).toMatch(new RegExp(`^${INCOMPLETE_CODE}: 3 automatic verification rounds`));
    expect(String(incomplete.content)).toContain("revision 4: app_build, app_test");
    expect(incomplete.details as VerificationIncompleteDetails).toMatchObject({
      revision: 4,
      missing: ["app_build", "app_test"],
      rounds: 3,
    });
    expect(h.requests).toHaveLength(8);
    expect(f.runs()).toEqual({ build: 3, test: 3 });

    const state = await replayState(f);
    expect(state.verification).toMatchObject({ revision: 4, checks: {}, roundsThisRequest: 3, incomplete: true });
    const text = await runCli(["replay", f.sessionFile], { cwd: f.cwd });
    expect(text.stdout).toContain("verification r4; rounds 3; INCOMPLETE");

    // The next user request starts with a fresh round budget and owes nothing until it changes a file.
    h.append([{ text: "The version is v4." }]);
    await h.prompt("What is the version now?");
    await expectQuiet(h);
    expect(reports(h)).toHaveLength(3);
    expect((await replayState(f)).verification).toMatchObject({ revision: 4, roundsThisRequest: 0, incomplete: false });
    await h.dispose();
    expectViewsReproduceRequests(f.sessionFile, h.requests, pi.convertToLlm as never);
  });

  it("read-only work: no report, no checks run", async () => {
    const f = fixture();
    const h = await kitHarness(f, [
      { text: "Reading.", toolCalls: [{ name: "read", args: { path: "src/math.mjs" } }] },
      { text: "add returns a + b." },
    ]);
    await h.prompt("What does add do?");
    await expectQuiet(h);
    expect(shape(h)).toEqual(["user", "assistant(read)", "result(read)", "assistant"]);
    expect(h.requests).toHaveLength(2);
    expect(f.runs()).toEqual({ build: 0, test: 0 });
    expect((await replayState(f)).verification).toMatchObject({ revision: 0, checks: {}, roundsThisRequest: 0 });
    await h.dispose();
    expectViewsReproduceRequests(f.sessionFile, h.requests, pi.convertToLlm as never);
  });

  it("a failed edit: no revision, no report", async () => {
    const f = fixture();
    const h = await kitHarness(f, [edit("a * b", "a + b"), { text: "The text was not found; nothing changed." }]);
    await h.prompt("Change a * b.");
    await expectQuiet(h);
    expect(shape(h)).toEqual(["user", "assistant(edit)", "result(edit):error", "assistant"]);
    expect(f.source()).toBe(SOURCE);
    expect(f.runs()).toEqual({ build: 0, test: 0 });
    expect((await replayState(f)).verification).toMatchObject({ revision: 0, roundsThisRequest: 0 });
    await h.dispose();
    expectViewsReproduceRequests(f.sessionFile, h.requests, pi.convertToLlm as never);
  });

  it("a run the user aborts after an edit: no report, no continuation", async () => {
    const f = fixture();
    const h = await kitHarness(f, [edit("a + b", "b + a"), { hang: true }]);
    const running = h.session.prompt("Swap the operands.");
    const deadline = Date.now() + 30_000;
    while (h.requests.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(h.requests).toHaveLength(2);
    await h.session.abort();
    await running;
    await h.settle();
    await expectQuiet(h);
    expect(shape(h)).toEqual(["user", "assistant(edit)", "result(edit)", "assistant:aborted"]);
    expect(f.runs()).toEqual({ build: 0, test: 0 });
    // The edit is recorded (revision 1) but was never verified automatically.
    expect((await replayState(f)).verification).toMatchObject({ revision: 1, checks: {}, roundsThisRequest: 0 });
    await h.dispose();
    expectViewsReproduceRequests(f.sessionFile, h.requests, pi.convertToLlm as never);
  });

  it("a provider error after an edit: no report, no continuation", async () => {
    const f = fixture();
    const h = await kitHarness(f, [edit("a + b", "b + a"), fauxError("overloaded")]);
    await h.prompt("Swap the operands.");
    await expectQuiet(h);
    expect(shape(h)).toEqual(["user", "assistant(edit)", "result(edit)", "assistant:error"]);
    expect(h.requests).toHaveLength(2);
    expect(f.runs()).toEqual({ build: 0, test: 0 });
    await h.dispose();
    expectViewsReproduceRequests(f.sessionFile, h.requests, pi.convertToLlm as never);
  });

  it("a test run that executes no test is reported as no tests, not as a pass", async () => {
    const f = fixture({ tests: { "README.md": "Tests go here.\n" } });
    const h = await kitHarness(f, [
      edit("a + b", "b + a"),
      { text: "Done." },
      { text: "The build passed; no test ran, so the change is not covered." },
    ]);
    await h.prompt("Swap the operands.");
    await expectQuiet(h);
    expect(h.extensionErrors).toEqual([]);
    const [report] = reports(h) as [Entry];
    expect(details(report).checks).toMatchObject([
      { name: "app_build", status: "passed" },
      { name: "app_test", status: "no_tests", testsRun: 0 },
    ]);
    const received = lastReceived(h.requests[2])?.text ?? "";
    expect(received).toContain("app_test: ran no tests (no coverage established), 0 tests ran");
    expect(received).not.toMatch(/app_test: passed/);
    expect((await replayState(f)).verification.checks.app_test).toMatchObject({ status: "no_tests", testsRun: 0 });
    await h.dispose();
    expectViewsReproduceRequests(f.sessionFile, h.requests, pi.convertToLlm as never);
  });

  it("a restart in the middle of a request keeps its revision and round count", async () => {
    const f = fixture({ source: BUGGY });
    const h1 = await kitHarness(f, [
      bump(0),
      { text: "v1." },
      edit("a - b", "a + b", "The test fails; repairing add."),
      fauxError("connection reset"),
    ]);
    await h1.prompt("Bump the version to v1.");
    await expectQuiet(h1);
    expect(shape(h1)).toEqual([
      "user",
      "assistant(edit)",
      "result(edit)",
      "assistant",
      "report r1#1",
      "assistant(edit)",
      "result(edit)",
      "assistant:error",
    ]);
    expect(details(reports(h1)[0] as Entry).checks[1]).toMatchObject({ name: "app_test", status: "failed" });
    await h1.dispose();
    const before = await replayState(f);
    expect(before.verification).toMatchObject({ revision: 2, checks: {}, roundsThisRequest: 1 });

    // A new host process resumes the same session file; a host message (not a user request) continues the request.
    const h2 = await kitHarness(f, [{ text: "Repaired add." }, { text: "All checks pass after the repair." }]);
    await h2.session.sendCustomMessage(
      { customType: "test/host-nudge", content: "Continue where you stopped.", display: true },
      { triggerTurn: true },
    );
    await h2.settle();
    await expectQuiet(h2);
    expect(h2.extensionErrors).toEqual([]);
    expect(shape(h2).slice(8)).toEqual(["custom:test/host-nudge", "assistant", "report r2#2", "assistant"]);
    const second = reports(h2)[1] as Entry;
    expect(details(second)).toMatchObject({
      revision: 2,
      round: 2,
      checks: [
        { name: "app_build", status: "passed" },
        { name: "app_test", status: "passed", testsRun: 1 },
      ],
    });
    expect(lastReceived(h2.requests[1])?.text).toContain("Completion report (revision 2, verification round 2)");
    const after = await replayState(f);
    expect(after.verification).toMatchObject({ revision: 2, roundsThisRequest: 2 });
    expect(after.request.currentRequestId).toBe(before.request.currentRequestId);
    await h2.dispose();
    expectViewsReproduceRequests(f.sessionFile, [...h1.requests, ...h2.requests], pi.convertToLlm as never);
  });

  it("the model ran app_test itself for the current revision: the kit runs only app_build, the failure stands", async () => {
    const f = fixture({ source: BUGGY });
    const h = await kitHarness(f, [
      bump(0),
      { text: "Running the tests.", toolCalls: [{ name: "app_test", args: {} }] },
      { text: "Version bumped; the add test fails, which is a blocker I did not touch." },
      { text: "Build passes; the failing add test remains a blocker." },
    ]);
    await h.prompt("Bump the version to v1 and run the tests.");
    await expectQuiet(h);
    expect(h.extensionErrors).toEqual([]);
    expect(shape(h)).toEqual([
      "user",
      "assistant(edit)",
      "result(edit)",
      "assistant(app_test)",
      "result(app_test)",
      "assistant",
      "report r1#1",
      "assistant",
    ]);
    const [report] = reports(h) as [Entry];
    expect(details(report).checks).toEqual([
      expect.objectContaining({ name: "app_build", status: "passed", by: "kit" }),
    ]);
    expect(f.runs()).toEqual({ build: 1, test: 1 });
    const received = lastReceived(h.requests[3])?.text ?? "";
    expect(received).toContain("app_build: passed");
    expect(received).not.toContain("app_test");
    expect((await replayState(f)).verification).toMatchObject({
      revision: 1,
      checks: { app_build: { status: "passed", by: "kit" }, app_test: { status: "failed", by: "model", testsRun: 1 } },
      roundsThisRequest: 1,
    });
    await h.dispose();
    expectViewsReproduceRequests(f.sessionFile, h.requests, pi.convertToLlm as never);
  });
});
