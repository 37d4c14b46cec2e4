import { spawnSync } from "node:child_process";
import { kitVersion } from "../package-root.js";
import type { HostPackage } from "./host.js";
import { protectedFlags, REFUSED_FLAGS } from "./launcher.js";

/** Whether the user asked pi-context (not a host subcommand) for help. */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.includes("--help") || argv.includes("-h");
}

const ANSI = /\x1b\[[0-9;]*m/g;

/** The host's own `--help`, from its CLI in a child process (the host prints it and exits). */
export function hostHelpText(host: HostPackage): string | null {
  const out = spawnSync(process.execPath, [host.cli, "--help"], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    timeout: 30_000,
  });
  // The host routes its console output to stderr outside the TUI.
  const text = `${out.stdout ?? ""}${out.stderr ?? ""}`.replace(ANSI, "");
  return out.status === 0 && text.includes("Options:") ? text : null;
}

/** The lines of one section of the host's help (`Options:`), up to the next heading. */
function section(help: string, heading: string): string[] {
  const lines = help.split("\n");
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line !== "" && !line.startsWith(" ")) break;
    out.push(line);
  }
  while (out.at(-1) === "") out.pop();
  return out;
}

/**
 * The host's options that still apply under pi-context: every option block (its line and the indented lines under
 * it) except those pi-context refuses, those it always sets, and help and version (pi-context answers them).
 */
export function applicableHostOptions(help: string, host: Pick<HostPackage, "name" | "version">): string[] {
  // "--" too: pi-context checks the arguments after it as well.
  const dropped = new Set([
    ...Object.keys(REFUSED_FLAGS),
    ...protectedFlags(host),
    "--help",
    "-h",
    "--version",
    "-v",
    "--",
  ]);
  const out: string[] = [];
  let keep = false;
  for (const line of section(help, "Options:")) {
    if (/^ {2}-/.test(line)) {
      const names = line.trim().split(/\s{2,}/)[0] as string;
      const flags = names.split(/,\s*/).map((f) => f.split(/[\s=<[]/)[0] as string);
      keep = !flags.some((flag) => dropped.has(flag));
    }
    if (keep && line.trim() !== "") out.push(line);
  }
  return out;
}

const ADDS = [
  "Pi with pi-context-kit inline: the same TUI, models, auth, sessions and print, JSON and RPC modes, with",
  "  - only the kit's guarded file tools (read, grep, find, ls, write, edit) and no shell: bash is off and the",
  "    user's ! and !! commands are refused;",
  "  - directory protection: a .context-exclude file excludes its directory; every path is checked afresh",
  "    (relative, absolute, .., ~, symlinks) and a denial says which rule fired;",
  "  - stall recovery: three similar action-promise replies with no tool progress append a visible",
  "    CONTEXT_RECOVERED marker, and the next request is sent the recovery view;",
  "  - completion verification when app_build and app_test are registered as host tools",
  "    (<agentDir>/context-kit-host-tools.json);",
  "  - AGENTS.md or CLAUDE.md in the start folder reloaded for each request as project data.",
  "The policy root is the folder pi-context starts in. Offline audit of the session files: context-kit --help.",
];

/** pi-context's own help: what the kit adds, what it refuses, then the host's options that still apply. */
export function launcherHelp(host: Pick<HostPackage, "name" | "version">, hostHelp: string | null): string {
  const byReason = new Map<string, string[]>();
  for (const [flag, why] of Object.entries(REFUSED_FLAGS)) byReason.set(why, [...(byReason.get(why) ?? []), flag]);
  const refused = [...byReason].map(([why, flags]) => [flags.join(", "), why] as const);
  const options = hostHelp === null ? [] : applicableHostOptions(hostHelp, host);
  return [
    `pi-context ${kitVersion()} (pi-context-kit) on ${host.name} ${host.version}`,
    "",
    "Usage:",
    "  pi-context [options] [messages...]",
    "  pi-context install|remove|uninstall|update|list|config ...   passed to the host untouched",
    "  pi-context --demo   a scripted session on Pi's offline faux provider: a denial and a stall recovery",
    "",
    ...ADDS,
    "",
    `Always set (discovery off, no built-in tools): ${protectedFlags(host).join(" ")}`,
    "",
    "Refused with exit code 2, anywhere on the command line (-- included), because they would bypass the kit:",
    "  @file: loads a file outside the checked loader (ask the agent to read it instead)",
    ...refused.map(([flags, why]) => `  ${flags}: ${why}`),
    "",
    hostHelp === null
      ? `The host's options could not be listed (${host.name} --help failed); those not refused above still apply.`
      : `Options of ${host.name} ${host.version} that still apply:`,
    ...options,
    "",
    "Examples:",
    '  pi-context "Describe the business scenarios"',
    '  pi-context --session ~/.pi/agent/sessions/--home-me-project--/2026-10-24.jsonl -p "Please continue."',
    "  pi-context --model anthropic/claude-sonnet-4 --thinking high",
  ].join("\n");
}
