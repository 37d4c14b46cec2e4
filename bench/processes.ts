import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { childEnv } from "./child-env.js";

/** How to start a child of the benchmark: node with these options on this script. */
export interface ChildLaunch {
  execArgv: string[];
  script: string;
}

/** The measured-process script next to this module (`.js` when built, `.ts` when run from the sources). */
export function processChildScript(): string {
  const self = import.meta.url;
  const ext = self.endsWith(".ts") ? ".ts" : ".js";
  return fileURLToPath(new URL(`./process-child${ext}`, self));
}

export interface ProcessSample {
  /** From spawn to exit, as a user waits for it. */
  wallMs: number;
  /** The work alone, inside the process (after its imports). */
  workMs: number;
  baselineRssBytes: number;
  maxRssBytes: number;
}

/** Runs one measured process (`floor FILE`, `host FILE` or `kit ARGS...`); its stdout is discarded. */
export function runProcess(launch: ChildLaunch, args: readonly string[], cwd: string): Promise<ProcessSample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...launch.execArgv, launch.script, ...args], {
      cwd,
      env: childEnv(),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - started;
      const last = stderr.trim().split("\n").pop() ?? "";
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        const report = JSON.parse(last) as Omit<ProcessSample, "wallMs">;
        resolve({
          wallMs,
          workMs: report.workMs,
          baselineRssBytes: report.baselineRssBytes,
          maxRssBytes: report.maxRssBytes,
        });
      } catch (error) {
        reject(new Error(`bench: \`${args.join(" ")}\` failed (${(error as Error).message}): ${stderr.slice(-2000)}`));
      }
    });
  });
}
