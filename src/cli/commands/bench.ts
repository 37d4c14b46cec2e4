import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Command, InputError, JSON_OPTION } from "../command.js";
import { childExecArgv } from "../file-pool.js";

export const benchCommand: Command = {
  name: "bench",
  summary: "Benchmark the kit side by side with the host: load, replay, per-request cost, peak memory (ratios).",
  usage: "context-kit bench [--json] [--quick] [--out FILE] [--sessions DIR]",
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
