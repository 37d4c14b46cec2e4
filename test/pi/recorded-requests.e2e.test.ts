import "../helpers/faux-env.js";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { KIT } from "../../reducers/contract/kit-entries.js";
import { runCli } from "../../src/cli/run.js";
import { createContextKitExtension } from "../../src/pi/extension.js";
import { loadSession } from "../../src/session.js";
import { cleanupCliSandboxes, createCliSandbox, runNodeCli } from "../helpers/faux-cli.js";
import { cleanupFauxHarnesses, createFauxHarness, pi, requestText } from "../helpers/faux-sdk.js";
import { expectViewsReproduceRequests } from "../helpers/recorded-requests.js";

afterAll(() => {
  cleanupCliSandboxes();
  cleanupFauxHarnesses();
});

const ENTRY = join(import.meta.dirname, "../helpers/pi-context-faux.mjs");
const convertToLlm = pi.convertToLlm as never;
const call = (name: string, args: Record<string, unknown>) => ({ text: `Using ${name}.`, toolCalls: [{ name, args }] });
const customs = (file: string, customType: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; customType?: string; data?: Record<string, unknown> })
    .filter((e) => e.type === "custom" && e.customType === customType);

describe("view reproduces every live request, and check proves it from the recorded digests", () => {
  it("a denied and an allowed read with root guidance, then AGENTS.md changes before the next run", async () => {
    const sandbox = createCliSandbox({
      files: {
        "AGENTS.md": "Project rule: keep functions small.\n",
        "generated/.context-exclude": "Generated code: read the spec instead.\n",
        "generated/client.ts": "export const client = 1;\n",
        "src/app.ts": "export const answer = 41;\n",
      },
    });
    const file = join(sandbox.root, "session.jsonl");
    const args = (prompt: string) => ["--model", "faux/faux-1", "--session", file, "-p", prompt];
    const first = await runNodeCli({
      entry: ENTRY,
      sandbox,
      timeoutMs: 60_000,
      args: args("Look around."),
      script: [call("read", { path: "generated/client.ts" }), call("read", { path: "src/app.ts" }), { text: "Done." }],
    });
    expect(first.exitCode).toBe(0);
    writeFileSync(join(sandbox.cwd, "AGENTS.md"), "Project rule: name every constant.\n");
    const second = await runNodeCli({
      entry: ENTRY,
      sandbox,
      timeoutMs: 60_000,
      args: args("Again, please."),
      script: [call("read", { path: "src/app.ts" }), { text: "Done again." }],
    });
    expect(second.exitCode).toBe(0);
    const requests = [...first.requests, ...second.requests];
    expect(requests).toHaveLength(5);

    // What the model was sent: the guidance in force first, the denial reminder after the denial.
    expect(requestText(first.requests[0]!)).toContain("keep functions small");
    expect(requestText(first.requests[1]!)).toContain("Host policy reminder");
    expect(requestText(second.requests[0]!)).toContain("name every constant");
    expect(requestText(second.requests[0]!)).not.toContain("keep functions small");
    // Guidance is recorded when it changes, not per request; one digest per request.
    expect(customs(file, KIT.rootGuidance).map((e) => e.data?.text)).toEqual([
      expect.stringContaining("keep functions small"),
      expect.stringContaining("name every constant"),
    ]);
    expect(customs(file, KIT.requestDigest)).toHaveLength(5);
    expect(expectViewsReproduceRequests(file, requests, convertToLlm)).toBe(5);

    const check = await runCli(["check", file], { cwd: sandbox.root });
    expect(check.exitCode).toBe(0);
    expect(check.stdout).toContain("5 of 5 recorded requests reproduced");

    // One byte of a recorded message changed, in a copy: every request that sent it differs, and is named.
    const tampered = join(sandbox.root, "tampered.jsonl");
    const text = readFileSync(file, "utf8");
    expect(text).toContain('"text":"Again, please."');
    writeFileSync(tampered, text.replace('"text":"Again, please."', '"text":"Again, pleasE."'));
    const bad = await runCli(["check", tampered, "--json"], { cwd: sandbox.root });
    expect(bad.exitCode).toBe(1);
    const report = JSON.parse(bad.stdout).files[0];
    expect(report.requests).toMatchObject({ recorded: 5, verified: 3, differs: 2 });
    expect(report.violations.map((v: { code: string; message: string }) => [v.code, v.message.split(":")[0]])).toEqual([
      ["REQUEST_DIFFERS", expect.stringMatching(/^request 4 \(digest entry \w+, leaf \w+\)$/)],
      ["REQUEST_DIFFERS", expect.stringMatching(/^request 5 \(digest entry \w+, leaf \w+\)$/)],
    ]);
    const textReport = await runCli(["check", tampered], { cwd: sandbox.root });
    expect(textReport.stdout).toMatch(/REQUEST_DIFFERS: request 4 \(digest entry/);

    // A digest recorded by another kit version that computed otherwise: a warning, not a violation.
    const older = join(sandbox.root, "older.jsonl");
    const digest = customs(file, KIT.requestDigest)[0]!.data as { digest: string; kitVersion: string };
    copyFileSync(file, older);
    const olderText = readFileSync(older, "utf8").replace(
      `"digest":"${digest.digest}","kitVersion":"${digest.kitVersion}"`,
      `"digest":"sha256:${"0".repeat(64)}","kitVersion":"0.0.1"`,
    );
    expect(olderText).not.toBe(readFileSync(file, "utf8"));
    writeFileSync(older, olderText);
    const warned = await runCli(["check", older, "--json"], { cwd: sandbox.root });
    expect(warned.exitCode).toBe(0);
    const warnedFile = JSON.parse(warned.stdout).files[0];
    expect(warnedFile.requests).toMatchObject({ verified: 4, otherVersion: 1, differs: 0 });
    expect(warnedFile.warnings).toEqual([
      expect.objectContaining({ code: "W_OTHER_KIT_VERSION", message: expect.stringMatching(/^request 1 .*0\.0\.1/) }),
    ]);

    // view names the request a leaf corresponds to.
    const leaf = loadSession(file).tree.entries.find(
      (e) =>
        e.type === "message" && e.message.role === "assistant" && JSON.stringify(e.message).includes("Done again."),
    );
    const view = JSON.parse(
      (await runCli(["view", file, "--leaf", leaf!.parentId!, "--json"], { cwd: sandbox.root })).stdout,
    );
    expect(view.requests).toEqual([expect.objectContaining({ number: 5, status: "verified" })]);
  }, 150_000);

  it("a recovery, then a compaction that summarises the marker away, then a new request", async () => {
    let firstKept = "";
    const compactor = (api: ExtensionAPI) => {
      api.on("session_before_compact", () => ({
        compaction: { summary: "Earlier: scenarios were asked for.", firstKeptEntryId: firstKept, tokensBefore: 900 },
      }));
    };
    const h = await createFauxHarness({
      files: { "models/school.xml": "<model objects='11'/>" },
      extensionFactories: [createContextKitExtension(), compactor],
    });
    const promise = "Let me check the compiler errors first.";
    h.script([
      { text: promise },
      { text: promise },
      { text: promise },
      call("read", { path: "models/school.xml" }),
      { text: "Eleven objects." },
      { text: "Grades live in the grade object." },
    ]);
    await h.prompt("Describe the scenarios. Constraint: never touch generated/.");
    await h.prompt("Scenarios, please.");
    await h.prompt("Scenarios now.");
    const deadline = Date.now() + 10_000;
    while (h.requests.length < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await h.settle();
    const entries = h.entries();
    const lastAnswer = entries.findLast(
      (e) => e.type === "message" && (e.message as { role: string }).role === "assistant",
    );
    firstKept = lastAnswer!.id as string;
    await h.session.compact();
    await h.prompt("Which object holds grades?");
    await h.dispose();

    expect(h.requests).toHaveLength(6);
    const after = h.requests[5]!;
    // The user messages the compaction took out come back first, then the summary and what follows it.
    expect(after.messages.map((m) => m.text.split("\n")[0])).toEqual([
      "Describe the scenarios. Constraint: never touch generated/.",
      "Scenarios, please.",
      "Scenarios now.",
      "The conversation history before this point was compacted into the following summary:",
      "Eleven objects.",
      "Which object holds grades?",
    ]);
    expect(requestText(after)).not.toContain(promise);
    expect(expectViewsReproduceRequests(h.sessionFile!, h.requests, convertToLlm)).toBe(6);
    const check = await runCli(["check", h.sessionFile!], { cwd: h.root });
    expect(check.stdout).toContain("6 of 6 recorded requests reproduced");
    expect(check.exitCode).toBe(0);
  }, 60_000);
});
