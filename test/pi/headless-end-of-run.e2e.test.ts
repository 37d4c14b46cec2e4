/**
 * `pi-context` in print and JSON mode on Pi 0.73: the kit's end-of-run work (completion checks and their
 * continuation, a stall found at the end of a prompt and its recovery) finishes before the process exits, as on 1.x.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { INCOMPLETE_CODE, KIT, RECOVERED_PREFIX } from "../../reducers/contract/kit-entries.js";
import { cleanupCliSandboxes, createCliSandbox, runNodeCli } from "../helpers/faux-cli.js";

const ENTRY = join(import.meta.dirname, "../helpers/pi-context-faux.mjs");
const APP_CHECKS = join(import.meta.dirname, "../../dist/src/tools/examples/app-checks.js");
const PROMISE = "Let me check the compiler errors first.";

afterAll(() => cleanupCliSandboxes());

type Stored = { type: string; customType?: string; content?: unknown };

const edit = (n: number) => ({
  text: `Editing (${n}).`,
  toolCalls: [{ name: "edit", args: { path: "app.txt", edits: [{ oldText: `v${n - 1}`, newText: `v${n}` }] } }],
});

function verificationSandbox() {
  const sandbox = createCliSandbox({
    files: {
      "app.txt": "v0\n",
      "package.json": JSON.stringify({
        name: "app",
        private: true,
        scripts: { build: "node -e 0", test: "node -e \"console.log('# tests 1'); process.exit(1)\"" },
      }),
    },
  });
  writeFileSync(
    join(sandbox.agentDir, "app-checks.mjs"),
    `export { createTools } from ${JSON.stringify(APP_CHECKS)};\n`,
  );
  writeFileSync(
    join(sandbox.agentDir, "context-kit-host-tools.json"),
    JSON.stringify({ version: 1, modules: [join(sandbox.agentDir, "app-checks.mjs")] }),
  );
  return sandbox;
}

describe("pi-context print and JSON mode on Pi 0.73 finish the kit's end-of-run work", () => {
  for (const mode of [["-p"], ["--mode", "json"]]) {
    it(`${mode.join(" ")}: an editing run gets three completion reports and VERIFICATION_INCOMPLETE`, async () => {
      const sandbox = verificationSandbox();
      const file = join(sandbox.root, "verify.jsonl");
      const run = await runNodeCli({
        entry: ENTRY,
        sandbox,
        timeoutMs: 120_000,
        args: ["--model", "faux/faux-1", "--session", file, ...mode, "Update app.txt."],
        script: [
          edit(1),
          { text: "Done." },
          edit(2),
          { text: "Done." },
          edit(3),
          { text: "Done." },
          edit(4),
          { text: "Done." },
        ],
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const entries = run.entries() as Stored[];
      const reports = entries.filter((e) => e.customType === KIT.completionReport);
      const incomplete = entries.filter((e) => e.customType === KIT.verificationIncomplete);
      expect(reports).toHaveLength(3);
      expect(incomplete).toHaveLength(1);
      expect(String(incomplete[0]?.content)).toContain(INCOMPLETE_CODE);
      expect(run.requests).toHaveLength(8);
      if (mode[0] === "--mode") {
        const events = run.stdout
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as { type: string; message?: Stored });
        const streamed = events.filter(
          (e) => e.type === "message_end" && e.message?.customType === KIT.completionReport,
        );
        expect(streamed).toHaveLength(3);
      }
      expect(run.stderr).not.toMatch(/stale|\[context-kit\]/);
    }, 150_000);
  }

  for (const mode of [["-p"], ["--mode", "json"]]) {
    it(`${mode.join(" ")}: a stall found at the end of a prompt is recovered in that process`, async () => {
      const sandbox = createCliSandbox();
      const file = join(sandbox.root, "stall.jsonl");
      const prompt = (text: string, script: object[]) =>
        runNodeCli({
          entry: ENTRY,
          sandbox,
          timeoutMs: 60_000,
          args: ["--model", "faux/faux-1", "--session", file, ...mode, text],
          script,
        });
      expect((await prompt("Describe the scenarios.", [{ text: PROMISE }])).exitCode).toBe(0);
      expect((await prompt("Scenarios please.", [{ text: PROMISE }])).exitCode).toBe(0);
      const third = await prompt("Scenarios now.", [{ text: PROMISE }, { text: "Here are the scenarios." }]);
      expect(third.exitCode, third.stderr).toBe(0);
      const markers = (third.entries() as Stored[]).filter((e) => e.customType === KIT.recoveryMarker);
      expect(markers).toHaveLength(1);
      expect(third.requests).toHaveLength(2);
      expect(third.requests.at(-1)!.messages.at(-1)!.text).toContain(RECOVERED_PREFIX);
      const last = (third.entries() as { type: string; message?: { role: string; content: { text?: string }[] } }[])
        .filter((e) => e.type === "message")
        .at(-1);
      expect(last?.message?.content[0]?.text).toBe("Here are the scenarios.");
    }, 150_000);
  }
});
