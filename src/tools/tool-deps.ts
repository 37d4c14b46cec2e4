import type { Policy } from "../policy/policy.js";
import type { DenialTracker } from "./denial-tracker.js";
import { DEFAULT_READ_LIMITS, type ReadLimits } from "./file-inspect.js";
import { nodeToolFileOperations, type ToolFileOperations } from "./file-ops.js";
import { MarkerIndex } from "./marker-index.js";
import { findRipgrep, type RipgrepSetting } from "./ripgrep.js";

export interface ToolLimits extends ReadLimits {
  /** grep skips files larger than this while walking. */
  maxSearchFileBytes: number;
  /** A walk stops after visiting this many entries. */
  maxWalkEntries: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  ...DEFAULT_READ_LIMITS,
  maxSearchFileBytes: 16 * 1024 * 1024,
  maxWalkEntries: 200_000,
};

/** Serialises mutations of one file; the host exports one (`withFileMutationQueue`). */
export type MutationQueue = <T>(path: string, fn: () => Promise<T>) => Promise<T>;

export interface GuardedToolsOptions {
  policy: Policy;
  denials: DenialTracker;
  withMutationQueue?: MutationQueue;
  operations?: Partial<ToolFileOperations>;
  limits?: Partial<ToolLimits>;
  /** Directory names grep and find never walk into (not exclusions: no denial, no `pruned`). */
  skipDirNames?: readonly string[];
  /**
   * The `rg` binary grep searches directories with (path, or null for the built-in search). Default: the host's
   * `<agentDir>/bin/rg` or `rg` on PATH, unless `operations` are injected (rg would bypass them).
   */
  ripgrep?: RipgrepSetting;
  /**
   * How `find` reads a pattern with `/`: anywhere below the search directory (the host up to 1.5), or relative to it
   * (1.6 and later, like grep's `glob`). Default: anywhere.
   */
  findGlobs?: FindGlobs;
}

export type FindGlobs = "anywhere" | "relative";

export interface ToolDeps {
  policy: Policy;
  denials: DenialTracker;
  queue: MutationQueue;
  ops: ToolFileOperations;
  limits: ToolLimits;
  skipDirNames: ReadonlySet<string>;
  ripgrep: string | null;
  /** Where the markers are below the folders searched with rg, checked afresh on each search. */
  markers: MarkerIndex;
  findGlobs: FindGlobs;
}

export function resolveToolDeps(options: GuardedToolsOptions): ToolDeps {
  const skipDirNames = options.skipDirNames ?? [".git", "node_modules"];
  return {
    policy: options.policy,
    denials: options.denials,
    queue: options.withMutationQueue ?? ((_path, fn) => fn()),
    ops: { ...nodeToolFileOperations, ...options.operations },
    limits: { ...DEFAULT_TOOL_LIMITS, ...options.limits },
    skipDirNames: new Set(skipDirNames),
    ripgrep: options.ripgrep !== undefined ? options.ripgrep : options.operations ? null : findRipgrep(),
    markers: new MarkerIndex(options.policy.caseInsensitive, skipDirNames),
    findGlobs: options.findGlobs ?? "anywhere",
  };
}

/** A positive whole number from an optional numeric argument, or the default. */
export function countArg(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}
