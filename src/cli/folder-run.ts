import { type FileItem, type FileTask, mapFiles } from "../files/file-pool.js";
import { plural } from "../text.js";
import type { CommandContext, CommandResult, CommandResultWithStderr } from "./command.js";
import { type FileFailure, failureLine, isFailure } from "./file-outcome.js";
import { expandInputs } from "./inputs.js";

export interface FolderCommand<T> {
  name: string;
  task: FileTask<T | FileFailure>;
  format: (result: T) => string;
  /** The file's outcome: its exit code and a word for the summary line ("ok", "with violations", ...). */
  verdict: (result: T) => { exitCode: 0 | 1 | 2; label: string };
  /** Between files' texts: a blank line by default, a newline for one-line results. */
  separator?: string;
  /** Text for stderr about a file that was read but is not usable (inspect still prints its report). */
  stderr?: (result: T) => string | null;
}

export interface FilesSummary {
  files: number;
  /** Files by outcome label, e.g. {"ok": 10, "not readable": 1}. */
  outcomes: Record<string, number>;
}

/**
 * Runs a command over every file named (folders searched), on the worker pool. A file that cannot be used is
 * reported with its error and the others still run; the exit code is the worst file's. `--json` prints one
 * document `{files, summary}`; `--ndjson` prints each file's object on its own line, in input order, as soon as it
 * and those before it are done.
 */
export async function runOverFiles<T extends object>(
  command: FolderCommand<T>,
  context: CommandContext,
  items: readonly FileItem[] = expandInputs(context.positionals, context.cwd),
): Promise<CommandResult> {
  const emit = context.emit;
  const results = await mapFiles(command.task, items, {
    progress: (done, total) => context.progress(done < total ? `${command.name} ${done}/${total}` : ""),
    ...(emit ? { onResult: (result: T | FileFailure) => emit(result) } : {}),
  });
  let exitCode: 0 | 1 | 2 = 0;
  const outcomes: Record<string, number> = {};
  const texts: string[] = [];
  const stderr: string[] = [];
  for (const result of results) {
    let verdict: { exitCode: 0 | 1 | 2; label: string };
    if (isFailure(result)) {
      verdict = { exitCode: 2, label: result.error.code === "E_READ" ? "not readable" : "not a session file" };
      texts.push(`${result.file}: ${result.error.code}: ${result.error.message.replace(`${result.file}: `, "")}`);
      stderr.push(`${failureLine(command.name, result)}\n`);
    } else {
      verdict = command.verdict(result);
      texts.push(command.format(result));
      const note = command.stderr?.(result);
      if (note) stderr.push(note);
    }
    outcomes[verdict.label] = (outcomes[verdict.label] ?? 0) + 1;
    exitCode = Math.max(exitCode, verdict.exitCode) as 0 | 1 | 2;
  }
  const summary: FilesSummary = { files: results.length, outcomes };
  if (results.length > 1) texts.push(summaryLine(summary));
  const result: CommandResultWithStderr = {
    exitCode,
    json: { files: results, summary },
    text: texts.join(command.separator ?? "\n\n"),
  };
  if (stderr.length > 0) result.stderr = stderr.join("");
  return result;
}

function summaryLine(summary: FilesSummary): string {
  const parts = Object.entries(summary.outcomes).map(([label, n]) => `${n} ${label}`);
  return `${plural(summary.files, "file")}: ${parts.join(", ")}`;
}
