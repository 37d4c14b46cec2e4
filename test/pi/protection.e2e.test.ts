import "../helpers/faux-env.js";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { convertToLlm } from "@mariozechner/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupCliSandboxes, createCliSandbox, runNodeCli } from "../helpers/faux-cli.js";

import { expectViewsReproduceRequests } from "../helpers/recorded-requests.js";

const ENTRY = join(import.meta.dirname, "../helpers/pi-context-faux.mjs");
const GUIDANCE = "Generated client code: read openapi/spec.yaml instead.";

afterAll(() => cleanupCliSandboxes());

const call = (name: string, args: Record<string, unknown>) => ({ text: `Using ${name}.`, toolCalls: [{ name, args }] });

describe("directory protection through pi-context on the real host", () => {
  it("denies, prunes, permits, removes the shell and keeps native context files out", async () => {
    const sandbox = createCliSandbox({
      files: {
        "AGENTS.md": "Project rule: keep functions small.\n",
        "generated/.context-exclude": `${GUIDANCE}\n`,
        "generated/client.ts": "export const SECRET_TOKEN = 'do-not-leak';\n",
        "src/app.ts": "export const answer = 41;\n",
      },
    });
    const file = join(sandbox.root, "protected.jsonl");
    const run = await runNodeCli({
      entry: ENTRY,
      sandbox,
      timeoutMs: 60_000,
      args: ["--model", "faux/faux-1", "--session", file, "-p", "Tidy up the project."],
      script: [
        call("read", { path: "generated/client.ts" }),
        call("grep", { pattern: "SECRET_TOKEN|answer", path: "." }),
        call("read", { path: "./src/../generated//client.ts" }),
        call("ls", { path: "generated" }),
        call("write", { path: "src/new.ts", content: "export const added = 1;\n" }),
        call("edit", { path: "src/app.ts", edits: [{ oldText: "41", newText: "42" }] }),
        call("bash", { command: "cat generated/client.ts" }),
        { text: "Done." },
      ],
    });
    expect(run.exitCode).toBe(0);
    const results = run.requests.at(-1)!.messages.filter((m) => m.role === "toolResult");
    expect(results.map((r) => [r.toolName, r.isError])).toEqual([
      ["read", true],
      ["grep", false],
      ["read", true],
      ["ls", true],
      ["write", false],
      ["edit", false],
      ["bash", true],
    ]);
    const [firstDenial, grep, alias, list] = results;
    expect(firstDenial!.text).toContain(GUIDANCE);
    expect(firstDenial!.text).toContain(".context-exclude");
    expect(alias!.text).not.toContain(GUIDANCE);
    expect(alias!.text).toMatch(/already blocked \(2 denied attempts/);
    expect(list!.text).toMatch(/already blocked \(3 denied attempts/);
    expect(grep!.text).toContain("src/app.ts");
    for (const r of results) expect(r.text).not.toContain("do-not-leak");
    expect(results.at(-1)!.text).toMatch(/bash/);

    expect(readFileSync(join(sandbox.cwd, "src/app.ts"), "utf8")).toContain("42");
    expect(existsSync(join(sandbox.cwd, "src/new.ts"))).toBe(true);

    const first = run.requests[0]!;
    expect(first.tools).not.toContain("bash");
    expect(first.tools.sort()).toEqual(["edit", "find", "grep", "ls", "read", "write"]);
    expect(first.systemPrompt).not.toContain("keep functions small");
    expect(first.messages[0]!.text).toContain("[project data from");
    expect(first.messages[0]!.text).toContain("keep functions small");

    const stored = run.entries().filter((e) => e.type === "message") as { message: Record<string, unknown> }[];
    const denials = stored
      .map((e) => e.message)
      .filter((m) => m.role === "toolResult" && (m.details as { code?: string })?.code === "CONTEXT_ACCESS_DENIED");
    expect(denials).toHaveLength(3);
    expect(denials.map((m) => (m.details as { scopeCount?: number }).scopeCount)).toEqual([undefined, 2, 3]);
    expect(denials.every((m) => m.isError === true)).toBe(true);
    expect(expectViewsReproduceRequests(file, run.requests, convertToLlm as never)).toBe(8);
  }, 90_000);
});

describe("the kit loaded with pi -e protects by itself", () => {
  it("deactivates bash and guards reads without the launcher", async () => {
    const { runPi } = await import("../helpers/faux-cli.js");
    const sandbox = createCliSandbox({
      files: { "private/.context-exclude": "Private notes.\n", "private/notes.txt": "secret\n", "ok.txt": "fine\n" },
    });
    const run = await runPi({
      sandbox,
      timeoutMs: 60_000,
      extraExtensions: [join(import.meta.dirname, "../../dist/src/pi/kit-extension.js")],
      args: ["-p", "Look around."],
      script: [
        call("read", { path: "private/notes.txt" }),
        call("bash", { command: "cat private/notes.txt" }),
        { text: "Done." },
      ],
    });
    expect(run.exitCode).toBe(0);
    expect(run.requests[0]!.tools).not.toContain("bash");
    const results = run.requests.at(-1)!.messages.filter((m) => m.role === "toolResult");
    expect(results.map((r) => r.isError)).toEqual([true, true]);
    expect(results[0]!.text).toContain("Private notes.");
    expect(results.map((r) => r.text).join("\n")).not.toContain("secret");
  }, 60_000);
});
