import { basename, join } from "node:path";
import { loadTextFile } from "./file-inspect.js";
import type { GrepOutput } from "./grep-output.js";
import { grepLines } from "./grep-output.js";
import { markerDirs, type RipgrepLine, type RipgrepRun, ripgrepLines } from "./ripgrep.js";
import type { GrepParams } from "./schemas.js";
import type { ToolDeps } from "./tool-deps.js";
import { throwIfAborted } from "./tool-types.js";

/**
 * grep over a directory with ripgrep, under the same protection as the built-in walk: excluded directories (found by
 * listing marker names) are passed to rg as exclusion globs so it never enters them, rg follows no symlinks and reads
 * no config or ignore files, and every result path is decided again by the policy before anything of it is shown.
 * Null when rg cannot be used for this call (the caller walks instead).
 */
export async function grepWithRipgrep(
  deps: ToolDeps,
  rg: string,
  dir: string,
  params: GrepParams,
  globOk: (rel: string, name: string) => boolean,
  out: GrepOutput,
  signal: AbortSignal | undefined,
): Promise<{ pruned: string[] } | null> {
  const { policy, ops, limits, skipDirNames } = deps;
  const run: RipgrepRun = { rg, cwd: dir, caseInsensitive: policy.caseInsensitive, signal };
  let excluded: string[] | null;
  try {
    excluded = await markerDirs(run, skipDirNames);
  } catch {
    return null;
  }
  throwIfAborted(signal);
  if (excluded === null) return null;

  const allowed = new Map<string, boolean>();
  const found: RipgrepLine[] = [];
  let outcome: Awaited<ReturnType<typeof ripgrepLines>>;
  try {
    outcome = await ripgrepLines(
      run,
      {
        pattern: params.pattern,
        literal: params.literal === true,
        ignoreCase: params.ignoreCase === true,
        glob: params.glob || undefined,
        maxFileBytes: limits.maxSearchFileBytes,
        excludeDirs: excluded,
        skipDirNames,
      },
      (line) => {
        let ok = allowed.get(line.rel);
        if (ok === undefined) {
          ok = globOk(line.rel, basename(line.rel)) && policy.decide(join(dir, line.rel), "search").allowed;
          allowed.set(line.rel, ok);
        }
        if (ok) found.push(line);
        return found.length < out.limit;
      },
    );
  } catch {
    return null;
  }
  throwIfAborted(signal);
  if (outcome.kind === "unusable") return null;

  let file: { rel: string; lines: string[] | null } | undefined;
  for (const hit of found) {
    if (out.context === 0) {
      out.line(hit.rel, hit.line, hit.text);
      continue;
    }
    if (file?.rel !== hit.rel) {
      const loaded = await loadTextFile(join(dir, hit.rel), ops, {
        ...limits,
        maxTextBytes: limits.maxSearchFileBytes,
      });
      file = { rel: hit.rel, lines: loaded.kind === "text" ? grepLines(loaded.text) : null };
    }
    if (file.lines && hit.line <= file.lines.length) out.block(hit.rel, file.lines, hit.line - 1);
    else out.line(hit.rel, hit.line, hit.text);
  }
  return { pruned: excluded.map((rel) => policy.canonical(join(dir, rel))) };
}
