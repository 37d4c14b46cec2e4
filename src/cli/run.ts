import { parseArgs } from "node:util";
import { kitVersion } from "../package-root.js";
import { type Command, type CommandResult, InputError, UsageError } from "./command.js";
import { COMMANDS } from "./commands/index.js";

export interface CliIo {
  cwd: string;
  progress?: (line: string) => void;
}

/** A result may carry text for stderr, e.g. naming an input the command could not use and why. */
export type CommandResultWithStderr = CommandResult & { stderr?: string };

export interface CliOutput {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    "context-kit: offline tools for Pi session files",
    "",
    "Usage: context-kit <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Every command takes --json. Exit codes: 0 ok, 1 a check found a problem, 2 bad usage or input.",
    "Run `context-kit <command> --help` for a command's options.",
  ].join("\n");
}

function commandHelp(command: Command): string {
  return `${command.summary}\n\nUsage: ${command.usage}`;
}

/** Runs one CLI invocation; nothing here touches `process`. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<CliOutput> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    return { exitCode: name === undefined ? 2 : 0, stdout: `${helpText()}\n`, stderr: "" };
  }
  if (name === "--version" || name === "-v") return { exitCode: 0, stdout: `${kitVersion()}\n`, stderr: "" };
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) return usageFailure(`unknown command "${name}"\n\n${helpText()}`);
  if (rest.includes("--help") || rest.includes("-h")) {
    return { exitCode: 0, stdout: `${commandHelp(command)}\n`, stderr: "" };
  }
  const wantsJson = rest.includes("--json");
  let result: CommandResult;
  try {
    const parsed = parseArgs({ args: [...rest], options: command.options, allowPositionals: true, strict: true });
    result = await command.run({
      values: parsed.values,
      positionals: parsed.positionals,
      cwd: io.cwd,
      progress: io.progress ?? (() => {}),
    });
  } catch (error) {
    return failure(error, command, wantsJson);
  }
  const stdout = wantsJson ? `${JSON.stringify(result.json, null, 2)}\n` : ensureNewline(result.text);
  return { exitCode: result.exitCode, stdout, stderr: (result as CommandResultWithStderr).stderr ?? "" };
}

function failure(error: unknown, command: Command, json: boolean): CliOutput {
  if (error instanceof InputError) {
    const stdout = json ? `${JSON.stringify({ error: { code: error.code, message: error.message } }, null, 2)}\n` : "";
    return { exitCode: 2, stdout, stderr: `context-kit ${command.name}: ${error.code}: ${error.message}\n` };
  }
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    return usageFailure(`${(error as Error).message}\n\nUsage: ${command.usage}`);
  }
  throw error;
}

function usageFailure(message: string): CliOutput {
  return { exitCode: 2, stdout: "", stderr: `context-kit: E_USAGE: ${message}\n` };
}

function ensureNewline(text: string): string {
  return text.endsWith("\n") || text === "" ? text : `${text}\n`;
}
