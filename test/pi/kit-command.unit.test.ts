import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { agentDirFromEnv } from "../../src/pi/agent-dir.js";
import { type KitCommandInputs, runKitCommand } from "../../src/pi/tui/kit-command.js";
import { createPolicy } from "../../src/policy/index.js";
import { loadSession } from "../../src/session.js";

const SAMPLES = join(import.meta.dirname, "../../evidence-samples");
const work = mkdtempSync(join(tmpdir(), "kit-command-"));
mkdirSync(join(work, "secret"));
mkdirSync(join(work, "deep/inner/vault"), { recursive: true });
writeFileSync(join(work, "secret/.context-exclude"), "Private notes.\nAsk the user instead.\n");
writeFileSync(join(work, "deep/inner/vault/.context-exclude"), "");
// As inside Pi: the policy protects the host's agent directory, which `context-kit policy` lists too.
const policy = createPolicy({ root: work, agentDir: agentDirFromEnv() });

function inputs(file: string | undefined, leafId: string | null): KitCommandInputs {
  return { cwd: work, sessionFile: file, leafId, policy, reportDir: join(work, "reports") };
}

describe("/kit", () => {
  it.each(["denials-session", "verification-session", "branched-school-session"])(
    "at a leaf of %s prints what `context-kit replay --leaf` prints",
    async (name) => {
      const file = join(SAMPLES, `${name}.jsonl`);
      const tree = loadSession(file).tree;
      for (const leaf of tree.leaves()) {
        const offline = await runCli(["replay", relative(work, file), "--leaf", leaf], { cwd: work });
        expect(await runKitCommand("", inputs(file, leaf))).toBe(offline.stdout.trimEnd());
      }
    },
  );

  it.each(["recovered-school-session", "denials-session"])(
    "view at a leaf of %s prints what `context-kit view --leaf` prints",
    async (name) => {
      const file = join(SAMPLES, `${name}.jsonl`);
      for (const leaf of loadSession(file).tree.leaves()) {
        const offline = await runCli(["view", relative(work, file), "--leaf", leaf], { cwd: work });
        expect(offline.exitCode).toBe(0);
        expect(await runKitCommand("view", inputs(file, leaf))).toBe(offline.stdout.trimEnd());
      }
    },
  );

  it("says why there is nothing to show before the host saved the session or the leaf", async () => {
    expect(await runKitCommand("", inputs(undefined, null))).toMatch(/not saved to a file/);
    expect(await runKitCommand("", inputs(join(work, "missing.jsonl"), null))).toMatch(/nothing saved yet/);
    const file = join(SAMPLES, "denials-session.jsonl");
    expect(await runKitCommand("", inputs(file, "ffffffff"))).toMatch(/nothing saved yet at the current leaf/);
  });

  it("policy lists every excluded scope with its guidance, as `context-kit policy` does", async () => {
    const text = await runKitCommand("policy", inputs(undefined, null));
    expect(text).toContain("excluded scopes (2):");
    expect(text).toContain("secret/  — Private notes. Ask the user instead.");
    expect(text).toContain("deep/inner/vault/");
    const offline = await runCli(["policy", "."], { cwd: work });
    expect(offline.exitCode).toBe(0);
    expect(text).toBe(offline.stdout.trimEnd());
  });

  it("report writes the audit page and changes nothing else", async () => {
    const file = join(SAMPLES, "verification-session.jsonl");
    const before = readFileSync(file);
    const tree = loadSession(file).tree;
    const text = await runKitCommand("report", inputs(file, tree.activeLeafId));
    const page = join(work, "reports", "verification-session.html");
    expect(text).toBe(`wrote the audit report of ${relative(work, file)} to ${page}`);
    expect(statSync(page).size).toBeGreaterThan(1000);
    expect(readFileSync(page, "utf8")).toContain("<!doctype html>");
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it("an unknown subcommand prints the list", async () => {
    const text = await runKitCommand("frobnicate now", inputs(undefined, null));
    expect(text.split("\n")[0]).toBe('unknown /kit command "frobnicate"; the commands are:');
    expect(text).toContain("/kit policy");
    expect(text).toContain("/kit report");
  });
});
