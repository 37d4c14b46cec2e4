import { relative } from "node:path";
import { formatReplay, type ReplayReport, replaySession } from "../../fold/replay-report.js";
import { type Command, JSON_OPTION, UsageError } from "../command.js";
import { mapFiles } from "../file-pool.js";
import { expandInputs, isSingleFile, loadInput, singleFile } from "../inputs.js";

/** One file's replay of every branch; what a file-pool worker runs for a folder. */
export function replayFile(path: string, shown: string): ReplayReport & { unusable?: true } {
  const session = loadInput(path, shown);
  const report: ReplayReport & { unusable?: true } = replaySession(shown, session);
  if (session.log.unusable) report.unusable = true;
  return report;
}

export const replayCommand: Command = {
  name: "replay",
  summary: "Replay branches through the reducers and print each branch's state (never writes).",
  usage: "context-kit replay FILE|DIR... [--leaf ID | --all] [--json]",
  options: { ...JSON_OPTION, leaf: { type: "string" }, all: { type: "boolean", default: false } },
  async run({ values, positionals, cwd, progress }) {
    const leaf = values.leaf as string | undefined;
    if (leaf !== undefined && values.all) throw new UsageError("--leaf and --all exclude each other");
    if (isSingleFile(positionals, cwd)) {
      const path = singleFile(positionals, cwd);
      const shown = relative(cwd, path) || path;
      const session = loadInput(path, shown);
      if (leaf !== undefined && !session.tree.get(leaf)) throw new UsageError(`no entry ${leaf} in ${shown}`);
      const report = replaySession(shown, session, leaf === undefined ? undefined : [leaf]);
      return { exitCode: session.log.unusable ? 2 : 0, json: report, text: formatReplay(report) };
    }
    if (leaf !== undefined) throw new UsageError("--leaf needs exactly one session file");
    const paths = expandInputs(positionals, cwd);
    const items = paths.map((path) => ({ path, shown: relative(cwd, path) || path }));
    const reports = await mapFiles({ module: import.meta.url, name: "replayFile", fn: replayFile }, items, {
      progress: (done, total) => progress(done < total ? `replay ${done}/${total}` : ""),
    });
    return {
      exitCode: reports.some((r) => r.unusable) ? 2 : 0,
      json: { files: reports },
      text: reports.map(formatReplay).join("\n\n"),
    };
  },
};
