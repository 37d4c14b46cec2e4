import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Command, InputError, JSON_OPTION } from "../command.js";
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
    "Benchmark the kit side by side with the host and the parse floor: commands, load, replay, per-request cost, memory, folders, grep/find/ls.",
  usage: "context-kit bench [--json] [--quick] [--check] [--out FILE] [--sessions DIR]",
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
