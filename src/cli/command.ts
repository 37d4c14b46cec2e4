import type { ParseArgsConfig } from "node:util";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

export interface CommandContext {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  cwd: string;
  /** Progress for a person at a terminal; silent elsewhere. */
  progress: (line: string) => void;
  /** Set with `--ndjson`: writes one JSON line (one file's result) as soon as it is ready. */
  emit?: (doc: unknown) => void;
}

export interface CommandResult {
  exitCode: 0 | 1 | 2;
  /** The `--json` document. */
  json: unknown;
  /** The human text. */
  text: string;
}

/** A result may carry text for stderr, e.g. naming an input the command could not use and why. */
export type CommandResultWithStderr = CommandResult & { stderr?: string };

/** A command is data: its name, help and options, and a function from parsed arguments to a result. */
export interface Command {
  name: string;
  summary: string;
  /** How it is started, when not `context-kit NAME` (the benchmark harness: `npm run bench --`). */
  invocation?: string;
  /** Arguments after `context-kit NAME`, as the help and the README show them. */
  usage: string;
  /** What the command does and says, a few sentences for `--help`. */
  description: string;
  options: OptionSpec;
  /** Every option's help, keyed as shown (`--leaf ID`); a test checks each option has one. */
  optionHelp: Record<string, string>;
  examples: string[];
  run(context: CommandContext): Promise<CommandResult> | CommandResult;
}

export class UsageError extends Error {
  readonly code = "E_USAGE";
}

export const JSON_OPTION: OptionSpec = { json: { type: "boolean", default: false } };
export const JSON_HELP = { "--json": "print one JSON document on stdout instead of text" };

/** For the commands that take several files: one JSON document, or one line per file. */
export const FILES_JSON_OPTIONS: OptionSpec = { ...JSON_OPTION, ndjson: { type: "boolean", default: false } };
export const FILES_JSON_HELP = {
  "--json": "print one JSON document, {files: [...], summary}, whatever the number of files",
  "--ndjson":
    "print one JSON line per file as each is done (the same objects as --json's files), for batch runs that split a folder across machines and merge the lines",
};
