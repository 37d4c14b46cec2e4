import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveHost } from "../../src/pi/host.js";
import { REFUSED_FLAGS } from "../../src/pi/launcher.js";
import { applicableHostOptions, hostHelpText } from "../../src/pi/launcher-help.js";
import { cleanupCliSandboxes, createCliSandbox, runNodeCli } from "../helpers/faux-cli.js";

const LAUNCHER = join(import.meta.dirname, "../../dist/src/pi/launcher-main.js");
afterAll(() => cleanupCliSandboxes());

/** The flags named at the start of an option line: `--tools, -t <tools>  ...` gives --tools and -t. */
const flagsOf = (line: string) =>
  (line.trim().split(/\s{2,}/)[0] as string).split(/,\s*/).map((f) => f.split(/[\s=<[]/)[0] as string);

describe("pi-context --help", () => {
  it("lists the host's own options except the refused, the always-set, help and version", () => {
    const host = resolveHost();
    // The host's --help starts its runtime: point it at a sandbox, never the user's ~/.pi.
    const sandbox = createCliSandbox();
    const saved = { dir: process.env.PI_CODING_AGENT_DIR, offline: process.env.PI_OFFLINE };
    process.env.PI_CODING_AGENT_DIR = sandbox.agentDir;
    process.env.PI_OFFLINE = "1";
    let help: string | null;
    try {
      help = hostHelpText(host);
    } finally {
      if (saved.dir === undefined) delete process.env.PI_CODING_AGENT_DIR;
      else process.env.PI_CODING_AGENT_DIR = saved.dir;
      if (saved.offline === undefined) delete process.env.PI_OFFLINE;
      else process.env.PI_OFFLINE = saved.offline;
    }
    expect(help).toContain("--system-prompt");
    const kept = applicableHostOptions(help as string, host).filter((line) => /^ {2}-/.test(line));
    const flags = kept.flatMap(flagsOf);
    for (const flag of ["--model", "--session", "--continue", "-p", "--mode", "--thinking", "--offline"]) {
      expect(flags).toContain(flag);
    }
    for (const flag of [...Object.keys(REFUSED_FLAGS), "--no-extensions", "--no-skills", "--help", "--version"]) {
      expect(flags).not.toContain(flag);
    }
  });

  it("the built bin prints what the kit adds, .context-exclude, the refused flags and the host's options", async () => {
    const run = await runNodeCli({ entry: LAUNCHER, args: ["--help"] });
    expect(run.exitCode).toBe(0);
    const out = run.stdout;
    expect(out).toMatch(/^pi-context \d+\.\d+\.\d+ \(pi-context-kit\) on @mariozechner\/pi-coding-agent 0\.73\.1\n/);
    expect(out).toContain("pi-context [options] [messages...]");
    expect(out).not.toContain("[@files...]");
    expect(out).toContain("a .context-exclude file excludes its directory");
    expect(out).toContain("no shell");
    const [kit, hostPart] = out.split(/\nOptions of @mariozechner\/pi-coding-agent 0\.73\.1 that still apply:\n/);
    expect(hostPart).toBeDefined();
    for (const flag of [
      "--system-prompt",
      "--append-system-prompt",
      "--skill",
      "--extension",
      "--tools",
      "--approve",
    ]) {
      expect(kit).toMatch(new RegExp(`\\n {2}[^\\n]*${flag}[^\\n]*: `));
      expect(hostPart).not.toMatch(new RegExp(`^ {2}[^ ]*${flag}\\b`, "m"));
    }
    expect(kit).toContain("@file: loads a file outside the checked loader");
    expect(hostPart).toMatch(/^ {2}--model <pattern> +Model pattern/m);
    expect(hostPart).toMatch(/^ {2}--session <path\|id> +/m);
    expect(run.stderr).toBe("");
  });

  it("leaves a host subcommand's help to the host", async () => {
    const run = await runNodeCli({ entry: LAUNCHER, args: ["install", "--help"] });
    expect(`${run.stdout}${run.stderr}`).not.toContain("pi-context-kit");
  });
});
