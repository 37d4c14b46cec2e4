import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KIT, RECOVERED_PREFIX } from "../../reducers/contract/kit-entries.js";
import { loadHostModule } from "../../src/pi/host.js";
import { cleanupCliSandboxes, createCliSandbox, runPi } from "../helpers/faux-cli.js";
import { expectViewsReproduceRequests } from "../helpers/recorded-requests.js";
import { HOST1, HOST1_CLI, KIT_EXTENSION, SKIP_HOST1 } from "./lane.js";

afterAll(() => cleanupCliSandboxes());

const GUIDANCE = "Secrets live in the vault, not in this folder.";
const SECRET = "TOKEN=do-not-leak";
const PROMISE = "Let me check the compiler errors first.";

type Stored = { type: string; customType?: string; message?: Record<string, unknown> };
const messagesOf = (entries: Record<string, unknown>[]) =>
  (entries as Stored[]).filter((e) => e.type === "message").map((e) => e.message as Record<string, unknown>);

/** The real 1.x CLI with the faux provider and the kit as users load it: `pi -e <kit-extension.js>`. */
const runKit = (options: Parameters<typeof runPi>[0]) =>
  runPi({ ...options, entry: HOST1_CLI, extraExtensions: [KIT_EXTENSION], timeoutMs: 60_000 });

describe.skipIf(SKIP_HOST1)("the kit as a `pi -e` extension on the Pi 1.x CLI", () => {
  it("denies a read under a .context-exclude marker (isError + CONTEXT_ACCESS_DENIED) and leaves no shell", async () => {
    const sandbox = createCliSandbox({
      files: {
        "secret/.context-exclude": `${GUIDANCE}\n`,
        "secret/key.txt": `${SECRET}\n`,
        "hello.txt": "hi\n",
      },
    });
    const file = join(sandbox.root, "denied.jsonl");
    const run = await runKit({
      sandbox,
      args: ["--session", file, "-p", "Read the key, then hello.txt."],
      script: [
        { text: "Reading the key.", toolCalls: [{ name: "read", args: { path: "secret/key.txt" } }] },
        { text: "Trying the shell.", toolCalls: [{ name: "bash", args: { command: "cat secret/key.txt" } }] },
        { text: "Reading hello.", toolCalls: [{ name: "read", args: { path: "hello.txt" } }] },
        { text: "The key is protected; hello.txt says hi." },
      ],
    });
    expect(run.stderr).not.toMatch(/context-kit\]/);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("hello.txt says hi");

    for (const request of run.requests) {
      expect(request.tools).not.toContain("bash");
      expect(request.tools.sort()).toEqual(["edit", "find", "grep", "ls", "read", "write"]);
      for (const m of request.messages) expect(m.text).not.toContain("do-not-leak");
    }

    const stored = messagesOf(run.entries());
    // 1.x records the tool state as a system message; the kit dropped the shell before it was written.
    const system = stored.filter((m) => m.role === "system");
    expect(system.length).toBeGreaterThanOrEqual(1);
    const declared = system.flatMap((m) => ((m.toolsAdded ?? []) as { name: string }[]).map((t) => t.name));
    expect(declared).not.toContain("bash");

    const results = stored.filter((m) => m.role === "toolResult");
    expect(results.map((m) => [m.toolName, m.isError])).toEqual([
      ["read", true],
      ["bash", true],
      ["read", false],
    ]);
    const denied = results[0]!;
    expect((denied.details as { code?: string }).code).toBe("CONTEXT_ACCESS_DENIED");
    expect(JSON.stringify(denied.content)).toContain(GUIDANCE);
    expect(JSON.stringify(results[1]!.content)).not.toContain("do-not-leak");
    expect(JSON.stringify(results[2]!.content)).toContain("hi");
    const { convertToLlm } = (await loadHostModule(HOST1!)) as { convertToLlm: never };
    expect(expectViewsReproduceRequests(file, run.requests, convertToLlm)).toBe(4);
  }, 90_000);

  // KNOWN ISSUE (both lines; 0.73.1 crashes the same way): in print mode the kit's agent_end continuation polls
  // `ctx.isIdle()` on a timer; `pi -p` disposes the session first, the stale ctx throws in the timer and the third
  // run exits 1 without a marker. The live path works in RPC mode (launcher.e2e.test.ts). Remove `.fails` once
  // extension.ts continues from `agent_before_settle` on 1.x (or stops polling a disposed ctx).
  it("a stall in print mode: the third promise-only reply gets a marker and a continued run, exit 0", async () => {
    const sandbox = createCliSandbox();
    const file = join(sandbox.root, "stall.jsonl");
    const prompt = (text: string, script: object[]) =>
      runKit({ sandbox, args: ["--session", file, "-p", text], script });
    expect((await prompt("Describe the scenarios.", [{ text: PROMISE }])).exitCode).toBe(0);
    expect((await prompt("Scenarios please.", [{ text: PROMISE }])).exitCode).toBe(0);
    const third = await prompt("Scenarios now.", [{ text: PROMISE }, { text: "Here are the scenarios." }]);
    const markers = (third.entries() as Stored[]).filter(
      (e) => e.type === "custom_message" && e.customType === KIT.recoveryMarker,
    );
    expect(markers).toHaveLength(1);
    expect(third.requests.at(-1)!.messages.at(-1)!.text).toContain(RECOVERED_PREFIX);
    expect(third.exitCode).toBe(0);
  }, 90_000);
});
