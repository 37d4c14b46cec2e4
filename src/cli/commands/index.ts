import type { Command } from "../command.js";

/** Every command by name, in the help's order, loaded when asked for: a run imports only its own command's code. */
const LOADERS: Record<string, () => Promise<Command>> = {
  inspect: async () => (await import("./inspect.js")).inspectCommand,
  replay: async () => (await import("./replay.js")).replayCommand,
  view: async () => (await import("./view.js")).viewCommand,
  check: async () => (await import("./check.js")).checkCommand,
  detect: async () => (await import("./detect.js")).detectCommand,
  recover: async () => (await import("./recover.js")).recoverCommand,
  report: async () => (await import("./report.js")).reportCommand,
  policy: async () => (await import("./policy.js")).policyCommand,
  index: async () => (await import("./fleet-index.js")).indexCommand,
  export: async () => (await import("./export.js")).exportCommand,
  stats: async () => (await import("./stats.js")).statsCommand,
};

export const COMMAND_NAMES: readonly string[] = Object.keys(LOADERS);

/** The command named `name`, or undefined for a name no command has. */
export function loadCommand(name: string): Promise<Command> | undefined {
  return Object.hasOwn(LOADERS, name) ? (LOADERS[name] as () => Promise<Command>)() : undefined;
}

/** Every command, for the help and its tests. */
export function loadCommands(): Promise<Command[]> {
  return Promise.all(COMMAND_NAMES.map((name) => loadCommand(name) as Promise<Command>));
}
