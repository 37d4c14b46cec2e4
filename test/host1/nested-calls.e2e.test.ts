import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KIT } from "../../reducers/contract/kit-entries.js";
import type { ReplayReport } from "../../src/fold/replay-report.js";
import { cleanupCliSandboxes, createCliSandbox, runNodeCli, runPi } from "../helpers/faux-cli.js";
import { HOST1_CLI, KIT_EXTENSION, SKIP_HOST1 } from "./lane.js";

afterAll(() => cleanupCliSandboxes());

const ROOT = join(import.meta.dirname, "../..");
const CONTEXT_KIT = join(ROOT, "dist/src/cli/main.js");
const NESTED_TOOL = join(import.meta.dirname, "nested-tool-ext.mjs");

type Stored = { type: string; customType?: string; data?: Record<string, unknown>; message?: Record<string, unknown> };

describe.skipIf(SKIP_HOST1)("nested tool calls (ctx.executeTool) through the kit on the 1.x CLI", () => {
  it("a nested read of an excluded file is denied; the write moves the revision; replay and check read them", async () => {
    const sandbox = createCliSandbox({
      files: { "secret/.context-exclude": "Keys live in the vault.\n", "secret/key.txt": "TOKEN=do-not-leak\n" },
    });
    const file = join(sandbox.root, "nested.jsonl");
    const calls = [
      { name: "read", args: { path: "secret/key.txt" } },
      { name: "write", args: { path: "notes.txt", content: "hi\n" } },
      { name: "read", args: { path: "missing.txt" } },
    ];
    const run = await runPi({
      sandbox,
      entry: HOST1_CLI,
      extraExtensions: [KIT_EXTENSION, NESTED_TOOL],
      timeoutMs: 60_000,
      args: ["--session", file, "-p", "Do the batch."],
      script: [{ text: "Batching.", toolCalls: [{ name: "batch", args: { calls } }] }, { text: "Done." }],
    });
    expect(run.stderr).not.toMatch(/context-kit\]/);
    expect(run.exitCode).toBe(0);
    for (const request of run.requests) for (const m of request.messages) expect(m.text).not.toContain("do-not-leak");

    const entries = run.entries() as Stored[];
    const result = entries.find((e) => e.message?.role === "toolResult")?.message as {
      nestedCalls?: { calls: { name: string; status: string }[]; complete: boolean };
    };
    expect(result.nestedCalls?.calls.map((c) => [c.name, c.status])).toEqual([
      ["read", "error"],
      ["write", "ok"],
      ["read", "error"],
    ]);
    const denials = entries.filter((e) => e.type === "custom" && e.customType === KIT.nestedDenial);
    expect(denials).toHaveLength(1);
    expect(denials[0]!.data).toMatchObject({ toolName: "read", details: { code: "CONTEXT_ACCESS_DENIED" } });

    const replay = await runNodeCli({ entry: CONTEXT_KIT, args: ["replay", file, "--json"], sandbox });
    expect(replay.exitCode).toBe(0);
    const report = (JSON.parse(replay.stdout) as { files: ReplayReport[] }).files[0]!;
    const branch = report.branches.find((b) => b.active)!;
    expect(branch.state.verification.revision).toBe(1);
    expect(branch.state.denials.map((d) => [d.status, d.count])).toEqual([["excluded", 1]]);
    expect(branch.nestedCalls).toMatchObject({ calls: 3, failed: 2, unfinished: 0, recordIncomplete: [] });

    const text = await runNodeCli({ entry: CONTEXT_KIT, args: ["replay", file], sandbox });
    expect(text.stdout).toMatch(/nested calls 3, 2 failed \(latest: read error, write ok, read error\)/);
    const check = await runNodeCli({ entry: CONTEXT_KIT, args: ["check", file], sandbox });
    expect(check.exitCode).toBe(0);

    // view: the nested calls as metadata of the record, while the messages are what the model was sent.
    const view = JSON.parse((await runNodeCli({ entry: CONTEXT_KIT, args: ["view", file, "--json"], sandbox })).stdout);
    expect(view.nestedCalls).toMatchObject({ calls: 3, failed: 2 });
    for (const request of run.requests) expect(JSON.stringify(request.messages)).not.toContain("nestedCalls");
    const page = await runNodeCli({
      entry: CONTEXT_KIT,
      args: ["report", file, "--out", join(sandbox.root, "nested.html")],
      sandbox,
    });
    expect(page.exitCode).toBe(0);
    expect(readFileSync(join(sandbox.root, "nested.html"), "utf8")).toContain(
      "[nested: read error, write ok, read error]",
    );
  }, 90_000);
});
