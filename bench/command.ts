import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Command, JSON_HELP, JSON_OPTION } from "../src/cli/command.js";
import { childExecArgv } from "../src/files/file-pool.js";
import { InputError } from "../src/files/input-error.js";

async function benchModules() {
  // Loaded when run, not at start-up: `--help` does not pay for the benchmark's modules.
  const run = await import("./run.js");
  const format = await import("./format.js");
  const processes = await import("./processes.js");
  const targets = await import("./targets.js");
  return { ...run, ...format, ...processes, ...targets };
}

export const benchCommand: Command = {
  name: "bench",
  invocation: "npm run bench --",
  summary:
    "Benchmark the kit against the host and the parse floor: commands, folders, load, replay, per request, memory, grep/find/ls.",
  usage: "[--quick] [--check] [--out FILE] [--sessions DIR] [--json]",
  description:
    "Measures the kit in one run against the parse floor (read, split and JSON.parse a file) and the host, and prints ratios with each target met or missed (medians of interleaved repetitions; below 1 the kit is faster or smaller): every offline command on a 97 MB session as a whole process (time, peak memory), folders of 1,000 sessions, loading, replaying every branch of a 25-leaf tree, the context hook's cost per request at 1k, 10k and 100k entries, and the guarded grep, find and ls against the host's on a tree of over 20,000 files. Runs from a checkout (npm ci && npm run bench -- [options]); not part of the installed package. Under two minutes.",
  optionHelp: {
    "--quick": "smaller inputs and fewer repetitions, for a smoke run (a few seconds)",
    "--check":
      "exit 1 when any applicable target is missed (a plain run exits 0; --quick leaves the full-size targets out)",
    "--out FILE": "also write the JSON results to FILE",
    "--sessions DIR":
      "load these real session files too (default: ../shared/pi-sessions when present, none with --quick)",
    ...JSON_HELP,
  },
  examples: ["npm run bench", "npm run bench -- --quick --check --out bench-results/quick.json"],
  options: {
    ...JSON_OPTION,
    quick: { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    out: { type: "string" },
    sessions: { type: "string" },
  },
  async run({ values, cwd, progress }) {
    const { defaultSessionsDir, runBench, formatBench, processChildScript, missed } = await benchModules();
    const quick = values.quick === true;
    const given = values.sessions as string | undefined;
    let sessionsDir: string | null = null;
    if (given !== undefined) {
      sessionsDir = resolve(cwd, given);
      if (!existsSync(sessionsDir)) throw new InputError("E_READ", `${given}: no such folder`);
    } else if (!quick && existsSync(defaultSessionsDir())) {
      sessionsDir = defaultSessionsDir();
    }
    const doc = await runBench({
      quick,
      sessionsDir,
      child: { execArgv: childExecArgv(), script: processChildScript() },
      progress,
    });
    const out = values.out as string | undefined;
    if (out !== undefined) writeFileSync(resolve(cwd, out), `${JSON.stringify(doc, null, 2)}\n`);
    // --check: exit 1 when any target is missed; a plain run always exits 0.
    const failed = values.check === true && doc.targets.some(missed);
    return { exitCode: failed ? 1 : 0, json: doc, text: formatBench(doc) };
  },
};
