import type { Command } from "./command.js";
import { loadCommands } from "./commands/index.js";

const WIDTH = 100;

function wrap(text: string, indent: string, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}

export function invocation(command: Command): string {
  return command.invocation ?? `context-kit ${command.name}`;
}

export function usageLine(command: Command): string {
  return `${invocation(command)} ${command.usage}`;
}

export async function helpText(): Promise<string> {
  const commands = await loadCommands();
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    "context-kit: offline tools for Pi session files (read-only, except recover, which only appends)",
    "",
    "Usage: context-kit <command> [options]",
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Every command takes --json; inspect, replay, check and detect also --ndjson. Exit codes: 0 ok, 1 a check",
    "found a problem, 2 bad usage or input. Run `context-kit <command> --help` for a command's options and examples.",
  ].join("\n");
}

export function commandHelp(command: Command): string {
  const options = Object.entries({ ...command.optionHelp, "-h, --help": "this help" });
  const width = Math.max(...options.map(([flag]) => flag.length));
  return [
    `${invocation(command)}: ${command.summary}`,
    "",
    `Usage: ${usageLine(command)}`,
    "",
    ...wrap(command.description, ""),
    "",
    "Options:",
    ...options.flatMap(([flag, text]) => {
      const [first, ...rest] = wrap(text, " ".repeat(width + 4), WIDTH);
      return [`  ${flag.padEnd(width)}  ${(first ?? "").trimStart()}`, ...rest];
    }),
    "",
    "Examples:",
    ...command.examples.map((example) => `  ${example}`),
  ].join("\n");
}
