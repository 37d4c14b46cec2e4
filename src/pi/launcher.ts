import type { HostPackage } from "./host.js";

/**
 * Flags that would bypass the kit (other prompts, tools, extensions, loaders or project trust): refused with exit
 * code 2 on both lines. Short forms count; flags only 1.x knows are refused on 0.73 too (it would exit 1 on them).
 */
export const REFUSED_FLAGS: Record<string, string> = {
  "--system-prompt": "replaces the system prompt",
  "--append-system-prompt": "adds unchecked text to the system prompt",
  "--skill": "loads a skill outside the checked loader",
  "--prompt-template": "loads a template outside the checked loader",
  "-e": "loads another extension",
  "--extension": "loads another extension",
  "--tools": "changes the tool set",
  "-t": "changes the tool set",
  "--no-tools": "changes the tool set",
  "-nt": "changes the tool set",
  "--no-builtin-tools": "changes the tool set",
  "-nbt": "changes the tool set",
  "--exclude-tools": "changes the tool set",
  "-xt": "changes the tool set",
  "--approve": "trusts project-local configuration (extensions, settings, system prompt files)",
  "-a": "trusts project-local configuration (extensions, settings, system prompt files)",
};

/** Host subcommands that manage packages and configuration: passed through untouched. */
const HOST_SUBCOMMANDS = new Set(["install", "remove", "uninstall", "update", "list", "config"]);
/** 1.x adds credential and MCP server management (0.73 reads these words as a prompt). */
const NEW_LINE_SUBCOMMANDS = new Set(["auth", "mcp"]);

export class LaunchRefused extends Error {
  readonly code = "E_LAUNCH_REFUSED";
}

export interface LaunchPlan {
  /** Arguments for the host's `main`. */
  args: string[];
  /** Run with the kit inline (false for package and configuration subcommands). */
  protect: boolean;
}

export function isNewHostLine(host: Pick<HostPackage, "name" | "version">): boolean {
  return host.name.startsWith("@earendil-works/") || Number.parseInt(host.version, 10) >= 1;
}

/**
 * Discovery off and no shell. On the 1.x line also no built-in extensions (codemode, tool search, MCP, llama.cpp:
 * `--no-extensions` covers them), no MCP servers and no project trust. 0.73 exits 1 on the 1.x flags, so it never
 * gets them.
 */
export function protectedFlags(host: Pick<HostPackage, "name" | "version">): string[] {
  const flags = ["--no-extensions", "--no-skills", "--no-context-files", "--no-prompt-templates", "--no-builtin-tools"];
  if (isNewHostLine(host)) flags.push("--no-mcp", "--no-approve");
  return flags;
}

function refuse(flag: string, why: string): never {
  throw new LaunchRefused(`${flag} ${why}, which would bypass the context policy; pi-context does not allow it.`);
}

/** Checks the user's arguments and adds the protected flags; throws LaunchRefused for a bypass. */
export function planLaunch(argv: readonly string[], host: Pick<HostPackage, "name" | "version">): LaunchPlan {
  const first = argv[0];
  if (first !== undefined && (HOST_SUBCOMMANDS.has(first) || (isNewHostLine(host) && NEW_LINE_SUBCOMMANDS.has(first))))
    return { args: [...argv], protect: false };
  // Every argument is checked: the host has no "--" terminator (it parses flags after it too).
  for (const [i, arg] of argv.entries()) {
    const flag = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg;
    const why = REFUSED_FLAGS[flag];
    if (why) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[i + 1];
      if ((flag === "-e" || flag === "--extension") && value?.startsWith("builtin:"))
        refuse(
          `${flag} ${value}`,
          "loads a built-in extension (codemode, tool search or MCP run tools the kit does not guard)",
        );
      refuse(flag, why);
    }
    if (arg.startsWith("@")) {
      throw new LaunchRefused(
        `${arg}: @file arguments load files outside the checked loader; ask the agent to read the file instead.`,
      );
    }
    if (/^-e(builtin:|.)/.test(arg) && !arg.startsWith("--")) {
      throw new LaunchRefused(`${arg} loads another extension, which would bypass the context policy.`);
    }
  }
  return { args: [...protectedFlags(host), ...argv], protect: true };
}
