import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupCliSandboxes, createCliSandbox, runNodeCli } from "../helpers/faux-cli.js";

const ENTRY = join(import.meta.dirname, "../helpers/pi-context-faux.mjs");

afterAll(() => cleanupCliSandboxes());

const call = (name: string, args: Record<string, unknown>) => ({ text: `Using ${name}.`, toolCalls: [{ name, args }] });

/** One attempt in each kind of scope the issue lists: outside the root, aliases of it, control and marker scopes. */
const ATTEMPTS = [
  call("read", { path: "../outside.txt" }),
  call("read", { path: "/proc/self/cwd/src/app.ts" }),
  call("read", { path: "/dev/stdin" }),
  call("write", { path: ".context-exclude", content: "" }),
  call("write", { path: ".pi/settings.json", content: "{}" }),
  call("write", { path: "src/.context-exclude", content: "" }),
  call("write", { path: ".git/hooks/pre-commit", content: "#!/bin/sh\n" }),
  call("read", { path: "generated/client.ts" }),
];

interface Stored {
  type: string;
  customType?: string;
  message?: { role: string; toolName?: string; details?: Record<string, unknown> };
}

describe("denial counters across requests through pi-context on the real host", () => {
  it("keeps counting outside-root, control and marker denials and never records them as allowed again", async () => {
    const sandbox = createCliSandbox({
      files: {
        "generated/.context-exclude": "Generated code.\n",
        "generated/client.ts": "export const x = 1;\n",
        "src/app.ts": "export const answer = 41;\n",
        ".git/HEAD": "ref: refs/heads/main\n",
      },
    });
    const file = join(sandbox.root, "counters.jsonl");
    const args = (prompt: string) => ["--model", "faux/faux-1", "--session", file, "-p", prompt];
    const first = await runNodeCli({
      entry: ENTRY,
      sandbox,
      timeoutMs: 60_000,
      args: args("Look around."),
      script: [...ATTEMPTS, { text: "Done." }],
    });
    expect(first.exitCode).toBe(0);
    const second = await runNodeCli({
      entry: ENTRY,
      sandbox,
      timeoutMs: 60_000,
      args: args("Try again."),
      script: [...ATTEMPTS, ...ATTEMPTS, { text: "Done." }],
    });
    expect(second.exitCode).toBe(0);

    const entries = second.entries() as unknown as Stored[];
    expect(entries.filter((e) => e.customType === "context-kit/policy-allowed/v1")).toEqual([]);
    const denials = entries
      .map((e) => e.message)
      .filter((m) => m?.role === "toolResult" && m.details?.code === "CONTEXT_ACCESS_DENIED")
      .map((m) => m!.details as { rule: string; scopeCount?: number; previouslyBlocked?: boolean });
    expect(denials).toHaveLength(ATTEMPTS.length * 3);

    // Three rounds of the same attempts: each rule's counter keeps rising, across tools and both processes.
    const byRule = new Map<string, (number | undefined)[]>();
    for (const d of denials) byRule.set(d.rule, [...(byRule.get(d.rule) ?? []), d.scopeCount]);
    const rules = [...byRule.keys()].map((rule) => rule.slice(0, rule.indexOf(":/")));
    expect(rules.sort()).toEqual([
      "control:git-dir",
      "control:marker-file",
      "control:marker-file",
      "control:pi-dir",
      "marker",
      "outside-root",
    ]);
    for (const [rule, counts] of byRule) {
      const n = counts.length;
      expect(counts, rule).toEqual([undefined, ...Array.from({ length: n - 1 }, (_, i) => i + 2)]);
    }
    expect(byRule.get([...byRule.keys()].find((r) => r.startsWith("outside-root:"))!)).toHaveLength(9);

    // The reminder of the last request lists the outside-root and control scopes too.
    const reminder = second.requests
      .at(-1)!
      .messages.map((m) => m.text)
      .find((t) => t.startsWith("Host policy reminder"));
    expect(reminder).toContain("Paths outside the project root");
    expect(reminder).toContain(`${join(sandbox.cwd, ".pi")} is a protected control location`);
    expect(reminder).toContain(`${join(sandbox.cwd, ".git")} is a protected control location`);
    expect(reminder).toContain("is excluded by a project marker");
  }, 150_000);
});
