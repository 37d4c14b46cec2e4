import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Command, InputError, JSON_HELP, JSON_OPTION } from "../command.js";
import { childExecArgv } from "../file-pool.js";

export const benchCommand: Command = {
  name: "bench",
  summary: "Benchmark the kit side by side with the host: load, replay, per-request cost, peak memory (ratios).",
  usage: "[--quick] [--out FILE] [--sessions DIR] [--json]",
  description:
    "Measures the kit against the host in one run, side by side, and prints ratios kit/host (medians of interleaved repetitions; below 1 the kit is faster or smaller): loading a file, replaying every branch of a 25-leaf tree, the context hook's cost per request at 1k, 10k and 100k entries, and peak memory on a 97 MB file. About 1.5 minutes.",
  optionHelp: {
    "--quick": "smaller sessions and fewer repetitions, for a smoke run (seconds, not minutes)",
    "--out FILE": "also write the JSON results to FILE",
    "--sessions DIR":
      "load these real session files too (default: ../shared/pi-sessions when present, none with --quick)",
    ...JSON_HELP,
  },
  examples: ["context-kit bench", "context-kit bench --quick --out bench-results/quick.json"],
  options: {
    ...JSON_OPTION,
    quick: { type: "boolean", default: false },
    out: { type: "string" },
    sessions: { type: "string" },
  },
  async run({ values, cwd, progress }) {
    // Loaded here, not at start-up: no other command pays for the benchmark's modules.
    const { defaultSessionsDir, runBench } = await import("../bench/run.js");
    const { formatBench } = await import("../bench/format.js");
    const { memoryChildScript } = await import("../bench/memory.js");
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
      child: { execArgv: childExecArgv(), script: memoryChildScript() },
      progress,
    });
    const out = values.out as string | undefined;
    if (out !== undefined) writeFileSync(resolve(cwd, out), `${JSON.stringify(doc, null, 2)}\n`);
    return { exitCode: 0, json: doc, text: formatBench(doc) };
  },
};
