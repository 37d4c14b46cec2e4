import type { ParseArgsConfig } from "node:util";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

export interface CommandContext {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  cwd: string;
  /** Progress for a person at a terminal; silent elsewhere. */
  progress: (line: string) => void;
}

export interface CommandResult {
  exitCode: 0 | 1 | 2;
  /** The `--json` document. */
  json: unknown;
  /** The human text. */
  text: string;
}

/** A command is data: its name, help and options, and a function from parsed arguments to a result. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: OptionSpec;
  run(context: CommandContext): Promise<CommandResult> | CommandResult;
}

export class UsageError extends Error {
  readonly code = "E_USAGE";
}

/** Bad input: the file cannot be read or is not what the command needs. Exit code 2. */
export class InputError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

export const JSON_OPTION: OptionSpec = { json: { type: "boolean", default: false } };
