import { parseArgs } from "node:util";
import { InputError, writeError } from "../files/input-error.js";
import { kitVersion } from "../package-root.js";
import { type Command, type CommandResult, type CommandResultWithStderr, UsageError } from "./command.js";
import { COMMAND_NAMES, loadCommand } from "./commands/index.js";
import { writeJson } from "./json-out.js";

export type { CommandResultWithStderr } from "./command.js";

// The help and the spelling suggestions load only when a run prints them (about 10 ms of every start otherwise).
const help = () => import("./help.js");
const didYouMean = async (given: string, known: readonly string[]) =>
  (await import("./did-you-mean.js")).didYouMean(given, known);

export interface CliIo {
  cwd: string;
  progress?: (line: string) => void;
  /** Where `--ndjson` lines and `--json` documents go as they are ready; without it they are collected into the output's stdout. */
  stdout?: (chunk: string) => void;
}

export interface CliOutput {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs one CLI invocation; nothing here touches `process`. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<CliOutput> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" && rest[0] !== undefined ? await loadCommand(rest[0]) : undefined;
    const { commandHelp, helpText } = await help();
    const text = topic ? commandHelp(topic) : await helpText();
    return { exitCode: name === undefined ? 2 : 0, stdout: `${text}\n`, stderr: "" };
  }
  if (name === "--version" || name === "-v") return { exitCode: 0, stdout: `${kitVersion()}\n`, stderr: "" };
  const command = await loadCommand(name);
  if (!command) {
    const known = COMMAND_NAMES as string[];
    return usageFailure(
      `unknown command "${name}"${await didYouMean(name, known)}; commands: ${known.join(", ")}`,
      null,
    );
  }
  return runCommand(command, rest, io);
}

/** Runs one command with its arguments (after its name): what `runCli` does once it has found the command. */
export async function runCommand(command: Command, rest: readonly string[], io: CliIo): Promise<CliOutput> {
  if (rest.includes("--help") || rest.includes("-h")) {
    return { exitCode: 0, stdout: `${(await help()).commandHelp(command)}\n`, stderr: "" };
  }
  const ndjson = rest.includes("--ndjson") && "ndjson" in command.options;
  const wantsJson = rest.includes("--json") || ndjson;
  const lines: string[] = [];
  const write = io.stdout ?? ((chunk: string) => lines.push(chunk));
  let result: CommandResult;
  try {
    const parsed = parseArgs({ args: [...rest], options: command.options, allowPositionals: true, strict: true });
    if (parsed.values.json && parsed.values.ndjson) throw new UsageError("--json and --ndjson exclude each other");
    result = await command.run({
      values: parsed.values,
      positionals: parsed.positionals,
      cwd: io.cwd,
      progress: io.progress ?? (() => {}),
      ...(ndjson ? { emit: (doc: unknown) => write(`${JSON.stringify(doc)}\n`) } : {}),
    });
  } catch (error) {
    return failure(error, command, wantsJson);
  }
  if (wantsJson && !ndjson && io.stdout) {
    // Streamed: a 100 MB view never becomes one string.
    writeJson(result.json, io.stdout);
    return { exitCode: result.exitCode, stdout: "", stderr: (result as CommandResultWithStderr).stderr ?? "" };
  }
  const stdout = ndjson
    ? lines.join("")
    : wantsJson
      ? `${JSON.stringify(result.json, null, 2)}\n`
      : ensureNewline(result.text);
  return { exitCode: result.exitCode, stdout, stderr: (result as CommandResultWithStderr).stderr ?? "" };
}

async function failure(error: unknown, command: Command, json: boolean): Promise<CliOutput> {
  if (error instanceof InputError) {
    const stdout = json ? `${JSON.stringify({ error: { code: error.code, message: error.message } }, null, 2)}\n` : "";
    return { exitCode: 2, stdout, stderr: `context-kit ${command.name}: ${error.code}: ${error.message}\n` };
  }
  if (error instanceof UsageError) return usageFailure(error.message, command);
  const code = (error as { code?: string }).code;
  if (code?.startsWith("ERR_PARSE_ARGS")) return usageFailure(await parseArgsMessage(error as Error, command), command);
  // A file system error no command turned into a clear one still ends as bad input, never as a stack trace.
  if (code?.startsWith("E") && (error as NodeJS.ErrnoException).syscall) {
    const io = writeError(error, command.name);
    return failure(new InputError("E_IO", io.message), command, json);
  }
  throw error;
}

/** Node's parseArgs messages, said shortly: `unknown option --strickt (did you mean --strict?)`. */
async function parseArgsMessage(error: Error, command: Command): Promise<string> {
  const code = (error as { code?: string }).code;
  const option = error.message.match(/'(-[^' ]+)/)?.[1];
  const known = [...Object.keys(command.options).map((o) => `--${o}`), "--help"];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option) {
    return `unknown option ${option} for ${command.name}${await didYouMean(option, known)}`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option) {
    const spec = command.options[option.replace(/^--/, "")];
    return spec?.type === "boolean" ? `${option} takes no value` : `${option} needs a value`;
  }
  return error.message;
}

async function usageFailure(message: string, command: Command | null): Promise<CliOutput> {
  const { invocation, usageLine } = await help();
  const hint = command
    ? `Usage: ${usageLine(command)}\nRun \`${invocation(command)} --help\` for the options.`
    : "Run `context-kit --help` for the commands.";
  return { exitCode: 2, stdout: "", stderr: `context-kit: E_USAGE: ${message}\n${hint}\n` };
}

function ensureNewline(text: string): string {
  return text.endsWith("\n") || text === "" ? text : `${text}\n`;
}
