import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { median, ratio } from "./stats.js";

export interface MemoryResult {
  name: string;
  bytes: number;
  /** Median peak RSS of a process that runs the kit's `inspect --json` on the file. */
  kitMaxRssBytes: number;
  /** Median peak RSS of a process that runs the host's load of the file. */
  hostMaxRssBytes: number;
  /** RSS of each process after its imports, before it reads the file. */
  kitBaselineRssBytes: number;
  hostBaselineRssBytes: number;
  /** kitMaxRssBytes / hostMaxRssBytes (target ≤ 1). */
  ratio: number;
  reps: number;
}

interface ChildReport {
  side: string;
  baselineRssBytes: number;
  maxRssBytes: number;
}

/** How to start a child of the benchmark: node with these options on this script. */
export interface ChildLaunch {
  execArgv: string[];
  script: string;
}

/** The memory child next to this module (`.js` when built, `.ts` when run from the sources with a loader). */
export function memoryChildScript(): string {
  const self = import.meta.url;
  const ext = self.endsWith(".ts") ? ".ts" : ".js";
  return fileURLToPath(new URL(`./memory-child${ext}`, self));
}

function runChild(launch: ChildLaunch, side: "kit" | "host", file: string, cwd: string): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...launch.execArgv, launch.script, side, file],
      { cwd, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`bench: the ${side} memory process failed: ${stderr || error.message}`));
          return;
        }
        try {
          resolve(JSON.parse(stdout.trim().split("\n").pop() ?? "") as ChildReport);
        } catch {
          reject(new Error(`bench: the ${side} memory process printed no report: ${stdout}${stderr}`));
        }
      },
    );
  });
}

/** Peak memory of each side in its own process, alternating which goes first. */
export async function measureMemory(
  launch: ChildLaunch,
  input: { name: string; file: string; bytes: number },
  reps: number,
  cwd: string,
): Promise<MemoryResult> {
  const kit: ChildReport[] = [];
  const host: ChildReport[] = [];
  for (let i = 0; i < reps; i++) {
    const order: ("kit" | "host")[] = i % 2 === 0 ? ["kit", "host"] : ["host", "kit"];
    for (const side of order) {
      const report = await runChild(launch, side, input.file, cwd);
      (side === "kit" ? kit : host).push(report);
    }
  }
  const kitMax = median(kit.map((r) => r.maxRssBytes));
  const hostMax = median(host.map((r) => r.maxRssBytes));
  return {
    name: input.name,
    bytes: input.bytes,
    kitMaxRssBytes: kitMax,
    hostMaxRssBytes: hostMax,
    kitBaselineRssBytes: median(kit.map((r) => r.baselineRssBytes)),
    hostBaselineRssBytes: median(host.map((r) => r.baselineRssBytes)),
    ratio: ratio(kitMax, hostMax),
    reps,
  };
}
