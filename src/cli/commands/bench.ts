import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Command, InputError, JSON_HELP, JSON_OPTION } from "../command.js";
import { childExecArgv } from "../file-pool.js";

async function benchModules() {
  try {
    // Loaded here, not at start-up: no other command pays for the benchmark's modules.
    const run = await import("../bench/run.js");
    const format = await import("../bench/format.js");
    const processes = await import("../bench/processes.js");
    return { ...run, ...format, ...processes };
  } catch (error) {
    if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new InputError(
      "E_USAGE",
      "the benchmark runs from a checkout of context-kit (`npm ci && npm run bench`): its session generators are not part of the installed package",
    );
  }
}

export const benchCommand: Command = {
  name: "bench",
  summary:
    "Benchmark the kit against the host and the parse floor: commands, folders, load, replay, per request, memory, grep/find/ls.",
  usage: "[--quick] [--check] [--out FILE] [--sessions DIR] [--json]",
  description:
    "Measures the kit in one run against the parse floor (read, split and JSON.parse a file) and the host, and prints ratios with each target met or missed (medians of interleaved repetitions; below 1 the kit is faster or smaller): every offline command on a 97 MB session as a whole process (time, peak memory), folders of 1,000 sessions, loading, replaying every branch of a 25-leaf tree, the context hook's cost per request at 1k, 10k and 100k entries, and the guarded grep, find and ls against the host's on a tree of over 20,000 files. Runs from a checkout (npm ci && npm run bench). A few minutes.",
  optionHelp: {
    "--quick": "smaller inputs and fewer repetitions, for a smoke run (about a minute)",
    "--check": "exit 1 when any target is missed (a plain run exits 0)",
    "--out FILE": "also write the JSON results to FILE",
    "--sessions DIR":
      "load these real session files too (default: ../shared/pi-sessions when present, none with --quick)",
    ...JSON_HELP,
  },
  examples: ["context-kit bench", "context-kit bench --quick --check --out bench-results/quick.json"],
  options: {
    ...JSON_OPTION,
    quick: { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    out: { type: "string" },
    sessions: { type: "string" },
  },
  async run({ values, cwd, progress }) {
    const { defaultSessionsDir, runBench, formatBench, processChildScript } = await benchModules();
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
    const missed = values.check === true && doc.targets.some((t) => !t.met);
    return { exitCode: missed ? 1 : 0, json: doc, text: formatBench(doc) };
  },
};
