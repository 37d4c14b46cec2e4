import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LargeSessionInfo, writeLargeSession } from "../test/synth/large-session.js";
import { countLabel } from "./stats.js";

/** What one benchmark run measures, and how often. */
export interface BenchPlan {
  quick: boolean;
  /** Linear sessions for load and per-request (entries); the largest is the memory file (about 100 MB in full). */
  sizes: number[];
  tree: { entries: number; leaves: number };
  /** Repetitions of a load of `entries` entries (each side). */
  loadReps(entries: number): number;
  replayReps: number;
  /** `context` hook calls per branch size, for each of the two cases (pass-through, recovery view). */
  requests: number;
  /** Time budget of each case: a slow case stops after at least 20 calls. */
  requestBudgetMs: number;
  /** Deep copies of the branch's messages timed for the host side. */
  cloneReps(entries: number): number;
  /** Rounds of the whole-process rows (every command, the floor and the host's load on the largest file). */
  commandReps: number;
  realReps: number;
  /** Sessions in the folder rows, and how many of them are distinct. */
  folder: { files: number; distinct: number; reps: number };
  /** Files taken into the file-tool tree (all of the kit's dependencies in full). */
  treeFiles: number;
  toolReps: number;
}

export const FULL_PLAN: BenchPlan = {
  quick: false,
  sizes: [1_000, 10_000, 100_000],
  tree: { entries: 10_000, leaves: 25 },
  loadReps: (n) => (n >= 100_000 ? 3 : n >= 10_000 ? 5 : 9),
  replayReps: 7,
  requests: 500,
  requestBudgetMs: 20_000,
  cloneReps: (n) => (n >= 100_000 ? 3 : n >= 10_000 ? 9 : 21),
  commandReps: 3,
  realReps: 7,
  folder: { files: 1_000, distinct: 40, reps: 2 },
  treeFiles: Number.POSITIVE_INFINITY,
  toolReps: 3,
};

export const QUICK_PLAN: BenchPlan = {
  quick: true,
  sizes: [300, 1_500],
  tree: { entries: 600, leaves: 25 },
  loadReps: () => 3,
  replayReps: 3,
  requests: 60,
  requestBudgetMs: 5_000,
  cloneReps: () => 3,
  commandReps: 1,
  realReps: 3,
  folder: { files: 20, distinct: 4, reps: 1 },
  treeFiles: 300,
  toolReps: 1,
};

export interface Fixture extends LargeSessionInfo {
  name: string;
}

/** The generated sessions of one run, in a fresh temporary folder removed by `dispose`. */
export class Fixtures {
  readonly dir: string;
  readonly linear: Fixture[] = [];
  readonly tree: Fixture;

  constructor(plan: BenchPlan, progress: (line: string) => void = () => {}) {
    this.dir = mkdtempSync(join(tmpdir(), "context-kit-bench-"));
    try {
      for (const entries of plan.sizes) {
        const name = countLabel(entries);
        progress(`bench: generating a ${name}-entry session`);
        const info = writeLargeSession(join(this.dir, `linear-${name}.jsonl`), { entries, seed: 1 });
        this.linear.push({ ...info, name });
      }
      const { entries, leaves } = plan.tree;
      progress(`bench: generating a ${leaves}-leaf tree`);
      const info = writeLargeSession(join(this.dir, `tree-${leaves}-leaves.jsonl`), { entries, leaves, seed: 2 });
      this.tree = { ...info, name: `${leaves} leaves, ${countLabel(entries)} entries` };
    } catch (error) {
      this.dispose();
      throw error;
    }
  }

  /** The largest linear session: the memory file. */
  get largest(): Fixture {
    return this.linear[this.linear.length - 1] as Fixture;
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The real session files of a folder (`.jsonl`, not below), by name; empty when the folder is absent. */
export function realSessions(dir: string | null): { name: string; file: string; bytes: number }[] {
  if (dir === null) return [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
  } catch {
    return [];
  }
  return names.sort().map((name) => ({ name, file: join(dir, name), bytes: statSync(join(dir, name)).size }));
}
