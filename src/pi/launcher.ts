import type { HostPackage } from "./host.js";

/** Flags that would bypass the kit (other prompts, tools, extensions or loaders): refused with exit code 2. */
const REFUSED_FLAGS: Record<string, string> = {
  "--system-prompt": "replaces the system prompt",
  "--append-system-prompt": "adds unchecked text to the system prompt",
  "--skill": "loads a skill outside the checked loader",
  "--prompt-template": "loads a template outside the checked loader",
  "-e": "loads another extension",
  "--extension": "loads another extension",
  "--tools": "changes the tool set",
  "-t": "changes the tool set",
  "--no-tools": "changes the tool set",
  "--no-builtin-tools": "changes the tool set",
  "--exclude-tools": "changes the tool set",
  "--approve": "trusts project-local configuration",
};

/** Host subcommands that manage packages and configuration: passed through untouched. */
const HOST_SUBCOMMANDS = new Set(["install", "remove", "uninstall", "update", "list", "config"]);

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

/** Discovery off and no shell; on the 1.x line also no MCP, no built-in extensions and no project trust. */
export function protectedFlags(host: Pick<HostPackage, "name" | "version">): string[] {
  const flags = ["--no-extensions", "--no-skills", "--no-context-files", "--no-prompt-templates", "--no-builtin-tools"];
  if (isNewHostLine(host)) flags.push("--no-mcp", "--no-approve");
  return flags;
}

/** Checks the user's arguments and adds the protected flags; throws LaunchRefused for a bypass. */
export function planLaunch(argv: readonly string[], host: Pick<HostPackage, "name" | "version">): LaunchPlan {
  if (argv[0] !== undefined && HOST_SUBCOMMANDS.has(argv[0])) return { args: [...argv], protect: false };
  for (const arg of argv) {
    if (arg === "--") break;
    const flag = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg;
    const why = REFUSED_FLAGS[flag];
    if (why)
      throw new LaunchRefused(`${flag} ${why}, which would bypass the context policy; pi-context does not allow it.`);
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
