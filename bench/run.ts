import { mkdirSync } from "node:fs";
import { cpus, freemem, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../src/package-root.js";
import { droppedEnv } from "./child-env.js";
import { type CommandsResult, measureCommands } from "./commands.js";
import { type FileToolsResult, measureFileTools } from "./file-tools.js";
import { writeFileTree } from "./file-tree.js";
import { type BenchPlan, Fixtures, FULL_PLAN, QUICK_PLAN, realSessions } from "./fixtures.js";
import { type FleetBenchRow, measureFleet } from "./fleet.js";
import { type FolderResult, measureFolder, writeSessionFolder } from "./folder.js";
import { HOST_PACKAGE, loadHost } from "./host.js";
import { type LoadRow, measureLoad, warmUpLoad } from "./load.js";
import { measurePerRequest, type PerRequestRow } from "./per-request.js";
import type { ChildLaunch } from "./processes.js";
import { measureReplay, type ReplayResult } from "./replay.js";
import { ratio } from "./stats.js";
import { BENCH_TARGETS, type Target, targetResults } from "./targets.js";

export interface BenchOptions {
  quick: boolean;
  /** Folder of real session files to load as well; null for none. */
  sessionsDir: string | null;
  /** How to start the measured processes. */
  child: ChildLaunch;
  progress: (line: string) => void;
}

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  totalMemoryBytes: number;
  freeMemoryBytes: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started and when it ended: other work on the machine skews the times. */
  loadAverage: { start: number; end: number };
  /** Variables left out of the timed child processes' environment (see child-env.ts). */
  droppedEnv: string[];
}

/** The benchmark's JSON document. Every ratio is kit / host: below 1 the kit is faster or smaller. */
export interface BenchDocument {
  kind: "context-kit-bench";
  version: 2;
  quick: boolean;
  machine: MachineInfo;
  host: { package: string; version: string };
  load: LoadRow[];
  replay: ReplayResult;
  perRequest: PerRequestRow[];
  /**
   * The fold's median at the largest branch over its median at the smallest (target ≤ 1.5); `anchoredRatio` is the
   * same for the fold on the anchored branch (after a recovery view of the whole branch).
   */
  /** `hookRatio`: the same for the whole hook when no projection applies (pass). */
  foldGrowth: { from: string; to: string; ratio: number; anchoredRatio: number; hookRatio: number };
  /** Each offline command on the largest file as a whole process, against the parse floor and the host's load. */
  commands: CommandsResult;
  /** Folder commands over many sessions, against the floor on every core. */
  folder: FolderResult;
  /** The fleet index on the same folder: a full index against `check DIR`, re-indexing unchanged and appended files. */
  fleet: FleetBenchRow[];
  /** Guarded grep, find and ls against the host's own on a large tree. */
  fileTools: FileToolsResult;
  /**
   * Every ratio by name: kit / host, except `foldGrowth*` (largest branch / smallest branch) and `command.*` /
   * `folder.*` (kit / parse floor).
   */
  ratios: Record<string, number>;
  targets: Target[];
  seconds: number;
}

export function machineInfo(startLoad: number): MachineInfo {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? "unknown",
    totalMemoryBytes: totalmem(),
    freeMemoryBytes: freemem(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: { start: startLoad, end: loadavg()[0] ?? 0 },
    droppedEnv: droppedEnv(),
  };
}

/** The default folder of real sessions: `../shared/pi-sessions` beside the kit's package folder. */
export function defaultSessionsDir(): string {
  return join(packageRoot(), "..", "shared", "pi-sessions");
}

export async function runBench(options: BenchOptions): Promise<BenchDocument> {
  const started = performance.now();
  const startLoad = loadavg()[0] ?? 0;
  const plan: BenchPlan = options.quick ? QUICK_PLAN : FULL_PLAN;
  const progress = options.progress;
  progress("bench: importing the host");
  const host = await loadHost();
  const fixtures = new Fixtures(plan, progress);
  try {
    // First, in a heap no other row has grown: the 100k file's load rows leave hundreds of MB for each of the
    // replay's forced collections to walk.
    progress("bench: replay");
    const replay = measureReplay(host, fixtures.tree.file, plan.replayReps);

    const load: LoadRow[] = [];
    warmUpLoad(host, (fixtures.linear[0] ?? fixtures.tree).file);
    for (const f of fixtures.linear) {
      progress(`bench: load ${f.name}`);
      load.push(
        measureLoad(
          host,
          { name: f.name, source: "synthetic", file: f.file, bytes: f.bytes },
          plan.loadReps(f.entries),
        ),
      );
    }
    for (const real of realSessions(options.sessionsDir)) {
      progress(`bench: load ${real.name}`);
      load.push(measureLoad(host, { ...real, source: "real" }, plan.realReps));
    }

    const perRequest: PerRequestRow[] = [];
    for (const f of fixtures.linear) {
      progress(`bench: per request ${f.name}`);
      perRequest.push(
        measurePerRequest(host, f.name, f.file, {
          requests: plan.requests,
          cloneReps: plan.cloneReps(f.entries),
          budgetMs: plan.requestBudgetMs,
        }),
      );
    }
    const first = perRequest[0] as PerRequestRow;
    const last = perRequest[perRequest.length - 1] as PerRequestRow;
    const foldGrowth = {
      from: first.name,
      to: last.name,
      ratio: ratio(last.fold.medianMs, first.fold.medianMs),
      anchoredRatio: ratio(last.foldAnchored.medianMs, first.foldAnchored.medianMs),
      hookRatio: ratio(last.passThrough.medianMs, first.passThrough.medianMs),
    };

    const largest = fixtures.largest;
    progress("bench: commands as whole processes");
    const commands = await measureCommands(
      options.child,
      { name: largest.name, file: largest.file, bytes: largest.bytes },
      plan.commandReps,
      fixtures.dir,
    );

    progress(`bench: generating a folder of ${plan.folder.files} sessions`);
    const folderFiles = writeSessionFolder(join(fixtures.dir, "folder"), plan.folder.files, plan.folder.distinct);
    progress("bench: folder commands");
    const folder = await measureFolder(options.child, folderFiles, plan.folder.reps, fixtures.dir);
    progress("bench: fleet index");
    const fleet = await measureFleet(folderFiles.dir, join(fixtures.dir, "fleet"), plan.folder.reps);

    progress("bench: building the file-tool tree");
    const treeRoot = join(fixtures.dir, "project");
    mkdirSync(treeRoot);
    const tree = writeFileTree(treeRoot, packageRoot(), plan.treeFiles);
    progress(`bench: grep, find, ls on ${tree.files} files`);
    const fileTools = await measureFileTools(host, tree, plan.toolReps, true);

    const ratios: Record<string, number> = {};
    for (const row of commands.rows) ratios[`command.${row.name}`] = row.floorRatio;
    for (const row of commands.rows) ratios[`memory.${row.name}`] = row.netMemoryRatio;
    for (const row of folder.rows) ratios[`folder.${row.name}`] = row.floorRatio;
    for (const row of load) ratios[`load.${row.name}`] = row.ratio;
    for (const row of fleet) ratios[`fleet.${row.name}`] = row.ratio;
    ratios.replay = replay.ratio;
    ratios.replayIndexed = replay.ratioIndexed;
    for (const row of perRequest) ratios[`perRequest.${row.name}.rewrite`] = row.rewriteRatio;
    ratios.foldGrowth = foldGrowth.ratio;
    ratios.foldGrowthAnchored = foldGrowth.anchoredRatio;
    ratios.hookGrowth = foldGrowth.hookRatio;
    for (const tool of ["grep", "find", "ls"] as const) {
      const r = fileTools.totals[tool].ratio;
      if (r !== null) ratios[`tools.${tool}`] = r;
    }
    progress("");
    return {
      kind: "context-kit-bench",
      version: 2,
      quick: plan.quick,
      machine: machineInfo(startLoad),
      host: { package: HOST_PACKAGE, version: host.version },
      load,
      replay,
      perRequest,
      foldGrowth,
      commands,
      folder,
      fleet,
      fileTools,
      ratios,
      targets: targetResults({ load, replay, perRequest, foldGrowth, commands, fileTools, fleet, quick: plan.quick }),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    fixtures.dispose();
  }
}

export { BENCH_TARGETS };
