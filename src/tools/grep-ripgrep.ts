import { basename, join } from "node:path";
import { loadTextFile } from "./file-inspect.js";
import type { GrepOutput } from "./grep-output.js";
import { grepLines } from "./grep-output.js";
import { inOrder, READ_AHEAD } from "./in-order.js";
import { type RipgrepLine, type RipgrepRun, ripgrepLines } from "./ripgrep.js";
import type { GrepParams } from "./schemas.js";
import type { ToolDeps } from "./tool-deps.js";
import { throwIfAborted } from "./tool-types.js";

/**
 * grep over a directory with ripgrep, under the same protection as the built-in walk: excluded directories (found by
 * the marker index, which checks every directory afresh) are passed to rg as exclusion globs so it never enters them, rg follows no symlinks and reads
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
  const excluded = deps.markers.excludedBelow(dir);
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

  if (out.context === 0) {
    for (const hit of found) out.line(hit.rel, hit.line, hit.text);
  } else {
    // Context needs each file's text: the files are read several at a time, shown in rg's order.
    const files: { rel: string; hits: RipgrepLine[] }[] = [];
    for (const hit of found) {
      const last = files.at(-1);
      if (last?.rel === hit.rel) last.hits.push(hit);
      else files.push({ rel: hit.rel, hits: [hit] });
    }
    const searchLimits = { ...limits, maxTextBytes: limits.maxSearchFileBytes };
    await inOrder(
      files,
      (file) => loadTextFile(join(dir, file.rel), ops, searchLimits),
      (file, loaded) => {
        const lines = loaded.kind === "text" ? grepLines(loaded.text) : null;
        for (const hit of file.hits) {
          if (lines && hit.line <= lines.length) out.block(hit.rel, lines, hit.line - 1);
          else out.line(hit.rel, hit.line, hit.text);
        }
        return true;
      },
      READ_AHEAD,
      signal,
    );
  }
  return { pruned: excluded.map((rel) => policy.canonical(join(dir, rel))) };
}
