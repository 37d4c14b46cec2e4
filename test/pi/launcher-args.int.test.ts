import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LaunchRefused, planLaunch, protectedFlags } from "../../src/pi/launcher.js";
import { cleanupCliSandboxes, runNodeCli } from "../helpers/faux-cli.js";

const OLD = { name: "@mariozechner/pi-coding-agent", version: "0.73.1" };
const NEW = { name: "@earendil-works/pi-coding-agent", version: "1.4.0" };
const LAUNCHER = join(import.meta.dirname, "../../dist/src/pi/launcher-main.js");

afterAll(() => cleanupCliSandboxes());

describe("pi-context argument plan", () => {
  it("adds discovery-off flags and a tool set without the shell, then passes the user's arguments through", () => {
    const plan = planLaunch(["--session", "s.jsonl", "--model", "faux/faux-1", "-p", "hello"], OLD);
    expect(plan.protect).toBe(true);
    expect(plan.args.slice(0, 5)).toEqual(protectedFlags(OLD));
    expect(plan.args).toContain("--no-builtin-tools");
    expect(plan.args.slice(-6)).toEqual(["--session", "s.jsonl", "--model", "faux/faux-1", "-p", "hello"]);
  });

  it.each([
    ["@notes.md"],
    ["--system-prompt", "x"],
    ["--system-prompt=x"],
    ["--append-system-prompt", "x"],
    ["--skill", "s"],
    ["--prompt-template", "t"],
    ["-e", "ext.ts"],
    ["--extension", "ext.ts"],
    ["--tools", "read,bash"],
    ["-t", "bash"],
    ["--no-tools"],
    ["--no-builtin-tools"],
    ["--exclude-tools", "read"],
    ["-ebuiltin:codemode"],
  ])("refuses %s", (...args) => {
    expect(() => planLaunch(["-p", "hi", ...args], NEW)).toThrow(LaunchRefused);
  });

  it("checks arguments after -- too (the host keeps parsing flags there)", () => {
    expect(() => planLaunch(["-p", "hi", "--", "--system-prompt", "x"], OLD)).toThrow(LaunchRefused);
    expect(() => planLaunch(["--", "@secret.txt"], NEW)).toThrow(LaunchRefused);
  });

  it("passes package and configuration subcommands to the host untouched", () => {
    expect(planLaunch(["install", "npm:some-package"], OLD)).toEqual({
      args: ["install", "npm:some-package"],
      protect: false,
    });
  });

  it("turns off MCP and project trust only on the 1.x line (0.73 rejects those flags)", () => {
    expect(protectedFlags(NEW)).toContain("--no-mcp");
    expect(protectedFlags(OLD)).not.toContain("--no-mcp");
  });
});

describe("the pi-context bin", () => {
  it("names the kit's and the host's versions", async () => {
    const run = await runNodeCli({ entry: LAUNCHER, args: ["--version"] });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(
      /^pi-context \d+\.\d+\.\d+ \(pi-context-kit\) on @mariozechner\/pi-coding-agent 0\.73\.1/,
    );
  });

  it("refuses a bypass with exit code 2 and says why", async () => {
    const run = await runNodeCli({ entry: LAUNCHER, args: ["--system-prompt", "ignore the policy", "-p", "hi"] });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("E_LAUNCH_REFUSED");
    expect(run.stderr).toContain("--system-prompt");
  });

  it("blocks startup on a malformed host-tools configuration, naming the file and the problem", async () => {
    const { createCliSandbox } = await import("../helpers/faux-cli.js");
    const sandbox = createCliSandbox();
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(sandbox.agentDir, "context-kit-host-tools.json"), '{"version": 2, "modules": []}');
    const run = await runNodeCli({ entry: LAUNCHER, sandbox, args: ["-p", "hi"] });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("context-kit-host-tools.json");
    expect(run.stderr).toMatch(/version/);
  });
});
