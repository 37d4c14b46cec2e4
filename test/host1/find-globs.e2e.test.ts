import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { versionAtLeast } from "../../src/pi/host.js";
import { cleanupCliSandboxes, createCliSandbox, runPi } from "../helpers/faux-cli.js";
import { HOST1, HOST1_CLI, KIT_EXTENSION, SKIP_HOST1 } from "./lane.js";

afterAll(() => cleanupCliSandboxes());

type Stored = { message?: { role?: string; content?: { text?: string }[] } };

describe.skipIf(SKIP_HOST1)("the guarded find follows the host line's glob semantics", () => {
  it("a pattern with a slash: relative to the search directory from 1.6, anywhere below it before", async () => {
    const sandbox = createCliSandbox({ files: { "src/a.ts": "a\n", "pkg/src/b.ts": "b\n", "src/c.js": "c\n" } });
    const run = await runPi({
      sandbox,
      entry: HOST1_CLI,
      extraExtensions: [KIT_EXTENSION],
      timeoutMs: 60_000,
      args: ["--session", join(sandbox.root, "find.jsonl"), "-p", "Find the TypeScript sources."],
      script: [
        { text: "Finding.", toolCalls: [{ name: "find", args: { pattern: "src/*.ts" } }] },
        { text: "Finding from here.", toolCalls: [{ name: "find", args: { pattern: "./src/*.ts" } }] },
        { text: "Found them." },
      ],
    });
    expect(run.exitCode).toBe(0);
    const results = (run.entries() as Stored[])
      .filter((e) => e.message?.role === "toolResult")
      .map((e) =>
        (e.message?.content ?? [])
          .map((c) => c.text ?? "")
          .join("")
          .split("\n")
          .sort(),
      );
    const relative = versionAtLeast(HOST1?.version, "1.6");
    expect(results[0]).toEqual(relative ? ["src/a.ts"] : ["pkg/src/b.ts", "src/a.ts"]);
    if (relative) expect(results[1]).toEqual(["src/a.ts"]);
  }, 90_000);
});
