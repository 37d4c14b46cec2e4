import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KIT, RECOVERED_PREFIX } from "../../reducers/contract/kit-entries.js";
import { ACCESS_DENIED } from "../../reducers/contract/tool-details.js";
import { DEMO_PROMPTS } from "../../src/pi/demo/demo-script.js";
import { cleanupCliSandboxes, createCliSandbox, readJsonLines, runNodeCli } from "../helpers/faux-cli.js";

const LAUNCHER = join(import.meta.dirname, "../../dist/src/pi/launcher-main.js");
const CLI = join(import.meta.dirname, "../../dist/src/cli/main.js");
const README = join(import.meta.dirname, "../../README.md");

/** The README's quick start: its command and the lines of the sample output it shows ("…" lines left out). */
function readmeQuickStart(): { command: string; sample: string[] } {
  const text = readFileSync(README, "utf8");
  const section = text.slice(text.indexOf("## Quick start"), text.indexOf("\n## ", text.indexOf("## Quick start") + 3));
  const command = /```sh\n(npx pi-context --demo)\b/.exec(section)?.[1] ?? "";
  const sample = (/```text\n([\s\S]*?)```/.exec(section)?.[1] ?? "").split("\n").filter((l) => l.trim() !== "…");
  return { command, sample: sample.filter((l) => l !== "") };
}

afterAll(() => cleanupCliSandboxes());

describe("pi-context --demo, as the README's quick start runs it", () => {
  it("runs offline on the scripted model: a denial, a stall recovery, an answer, and a session `check` verifies", async () => {
    const quickStart = readmeQuickStart();
    expect(quickStart.command).toBe("npx pi-context --demo");
    const sandbox = createCliSandbox();
    // `npx pi-context` runs the package's bin, the built launcher. No faux script and no provider key: the demo
    // brings its own scripted model.
    const run = await runNodeCli({ entry: LAUNCHER, sandbox, args: ["--demo"], timeoutMs: 90_000 });
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const out = run.stdout;
    expect(out).toMatch(/^pi-context demo: @mariozechner\/pi-coding-agent 0\.73\.1 with pi-context-kit/);
    expect(out).toContain("Version 2 ships on Friday. I cannot give you the deploy key");
    const transcript = out.slice(out.indexOf("What happened"));
    const labels = transcript
      .split("\n")
      .filter((line) => /^ {2}\S/.test(line) && !line.includes("context-kit "))
      .map((line) => line.trim().split(/\s+/)[0]);
    expect(labels).toEqual([
      "you",
      "model",
      "model",
      "model",
      "result",
      "denied",
      "model",
      "you",
      "model",
      "you",
      "model",
      "kit",
      "model",
    ]);
    expect(transcript).toMatch(/denied {2}Access denied by host policy: "secrets\/deploy-key\.txt"/);
    expect(transcript).toContain(`kit     ${RECOVERED_PREFIX}:`);
    expect(transcript).not.toContain("demo-key-not-a-real-secret");
    // What the README shows is what the demo prints.
    expect(quickStart.sample.length).toBeGreaterThan(5);
    for (const line of quickStart.sample) expect(transcript.split("\n")).toContain(line);

    // Everything lives under the temporary folder; the agent directory the caller set is left alone.
    const demoRoots = readdirSync(sandbox.tmp).filter((name) => name.startsWith("pi-context-demo-"));
    expect(demoRoots).toHaveLength(1);
    expect(readdirSync(sandbox.agentDir)).toEqual(["settings.json"]);
    const session = join(sandbox.tmp, demoRoots[0] as string, "demo-session.jsonl");
    expect(out).toContain(`context-kit view ${session}`);
    expect(existsSync(session)).toBe(true);

    const entries = readJsonLines(session);
    const users = entries.filter((e) => (e.message as { role?: string } | undefined)?.role === "user");
    expect(users).toHaveLength(DEMO_PROMPTS.length);
    const denied = entries.filter(
      (e) => ((e.message as { details?: { code?: string } } | undefined)?.details?.code ?? "") === ACCESS_DENIED,
    );
    expect(denied).toHaveLength(1);
    expect(entries.filter((e) => e.customType === KIT.recoveryMarker)).toHaveLength(1);

    // The offline commands the demo suggests work on its session: every recorded request reproduced.
    const check = await runNodeCli({ entry: CLI, sandbox, args: ["check", session, "--json"] });
    expect(check.exitCode).toBe(0);
    const report = JSON.parse(check.stdout) as { files: { violations: unknown[]; requests: unknown }[] };
    expect(report.files[0]?.violations).toEqual([]);
    expect(report.files[0]?.requests).toMatchObject({ recorded: 5, verified: 5, differs: 0 });
  }, 120_000);

  it("takes no other arguments", async () => {
    const run = await runNodeCli({ entry: LAUNCHER, args: ["--demo", "-p", "hello"] });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("--demo takes no other arguments");
  });
});
