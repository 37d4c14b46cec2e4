import { createPolicy } from "../src/policy/index.js";
import { createMemoryDenialTracker } from "../src/tools/denial-tracker.js";
import { createGuardedTools, type GuardedTools } from "../src/tools/guarded-tools.js";
import { findRipgrep } from "../src/tools/ripgrep.js";
import type { FileTree } from "./file-tree.js";
import type { HostApi } from "./host.js";
import { median, ratio } from "./stats.js";

type ToolName = "grep" | "find" | "ls";

/** The calls both sides answer, as an agent makes them in a large repository. */
export const TOOL_CALLS: readonly { tool: ToolName; params: Record<string, unknown> }[] = [
  { tool: "grep", params: { pattern: "function", literal: true } },
  { tool: "grep", params: { pattern: "zq[0-9]+xv_never" } },
  { tool: "grep", params: { pattern: "NoSuchTokenAnywhere", ignoreCase: true } },
  { tool: "grep", params: { pattern: "import .* from", glob: "*.ts" } },
  { tool: "grep", params: { pattern: "export", path: "src", context: 2 } },
  { tool: "find", params: { pattern: "*.json" } },
  { tool: "find", params: { pattern: "**/*.d.ts", path: "deps" } },
  { tool: "ls", params: { path: "deps" } },
  { tool: "ls", params: { path: "src/cli" } },
];

export interface ToolCallRow {
  tool: ToolName;
  call: string;
  /** Median ms of the kit's guarded tool (through rg when there is one). */
  kitMs: number;
  /** The kit's built-in search (no rg), one run; null where it was not timed. */
  builtInMs: number | null;
  /** Median ms of the host's own tool; null when the host could not run it (no rg or fd). */
  hostMs: number | null;
  ratio: number | null;
  reps: number;
}

export interface FileToolsResult {
  files: number;
  dirs: number;
  ripgrep: string | null;
  /** Why host rows are missing, if they are. */
  hostProblems: string[];
  rows: ToolCallRow[];
  /** Sum of the medians over each tool's calls, and kit / host of those sums. */
  totals: Record<ToolName, { kitMs: number; hostMs: number | null; ratio: number | null }>;
}

type Execute = (params: Record<string, unknown>) => Promise<unknown>;

async function timedCall(run: Execute, params: Record<string, unknown>): Promise<number> {
  const start = performance.now();
  await run(params);
  return performance.now() - start;
}

/** The guarded grep, find and ls against the host's own tools on one tree, same calls, alternating order. */
export async function measureFileTools(
  host: HostApi,
  tree: FileTree,
  reps: number,
  timeBuiltIn: boolean,
): Promise<FileToolsResult> {
  // The host must not try to download rg or fd in the middle of a measurement.
  process.env.PI_OFFLINE = "1";
  const rg = findRipgrep();
  const make = (ripgrep: string | null): GuardedTools =>
    createGuardedTools({
      policy: createPolicy({ root: tree.root, protectedDirs: [] }),
      denials: createMemoryDenialTracker(),
      ripgrep,
    });
  const kit = make(rg);
  const builtIn = make(null);
  const hostTools = {
    grep: host.createGrepToolDefinition(tree.root),
    find: host.createFindToolDefinition(tree.root),
    ls: host.createLsToolDefinition(tree.root),
  };
  const hostProblems: string[] = [];
  const rows: ToolCallRow[] = [];
  for (const { tool, params } of TOOL_CALLS) {
    const kitRun: Execute = (p) => kit[tool].execute("bench", p as never, undefined, undefined, undefined);
    const hostRun: Execute = (p) => hostTools[tool].execute("bench", p, undefined, undefined, undefined);
    let hostOk = true;
    await kitRun(params);
    try {
      await hostRun(params);
    } catch (error) {
      hostOk = false;
      const why = `host ${tool}: ${(error as Error).message.split("\n")[0]}`;
      if (!hostProblems.includes(why)) hostProblems.push(why);
    }
    const kitTimes: number[] = [];
    const hostTimes: number[] = [];
    for (let i = 0; i < reps; i++) {
      if (i % 2 === 1 && hostOk) hostTimes.push(await timedCall(hostRun, params));
      kitTimes.push(await timedCall(kitRun, params));
      if (i % 2 === 0 && hostOk) hostTimes.push(await timedCall(hostRun, params));
    }
    const builtInMs =
      tool === "grep" && timeBuiltIn
        ? await timedCall((p) => builtIn.grep.execute("bench", p as never, undefined, undefined, undefined), params)
        : null;
    const kitMs = median(kitTimes);
    const hostMs = hostOk ? median(hostTimes) : null;
    rows.push({
      tool,
      call: JSON.stringify(params),
      kitMs,
      builtInMs,
      hostMs,
      ratio: hostMs === null ? null : ratio(kitMs, hostMs),
      reps,
    });
  }
  const totals = {} as FileToolsResult["totals"];
  for (const tool of ["grep", "find", "ls"] as const) {
    const mine = rows.filter((r) => r.tool === tool);
    const kitMs = mine.reduce((s, r) => s + r.kitMs, 0);
    const hostMs = mine.some((r) => r.hostMs === null) ? null : mine.reduce((s, r) => s + (r.hostMs ?? 0), 0);
    totals[tool] = { kitMs, hostMs, ratio: hostMs === null ? null : ratio(kitMs, hostMs) };
  }
  return { files: tree.files, dirs: tree.dirs, ripgrep: rg, hostProblems, rows, totals };
}
