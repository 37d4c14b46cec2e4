import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { Script } from "node:vm";

/** A CommonJS file run through `loadCommonJs`: its exports, and whether V8 took its code cache. */
export interface LoadedCommonJs {
  exports: unknown;
  cacheUsed: boolean;
  script: Script;
}

/** The code cache of `file` for this process's V8 (a cache of another V8 is never tried). */
export function codeCachePath(file: string): string {
  return `${file}.v8-${process.versions.v8}.cache`;
}

/**
 * Runs a self-contained CommonJS file (a bundle) as `require` would, with the code V8 compiled of it in an earlier
 * process (`writeCodeCache`): a cache V8 rejects (another build or other flags) costs only its read. It is not put in
 * `require`'s module cache: the caller keeps what it returns.
 */
export function loadCommonJs(file: string): LoadedCommonJs {
  const cache = codeCachePath(file);
  const cachedData = existsSync(cache) ? readFileSync(cache) : undefined;
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, "utf8")}\n})`;
  const script = new Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, cacheUsed: cachedData !== undefined && !script.cachedDataRejected, script };
}

/** Writes the code V8 has compiled of a loaded file so far: run what a command runs first, so that it is in. */
export function writeCodeCache(file: string, loaded: LoadedCommonJs): void {
  writeFileSync(codeCachePath(file), loaded.script.createCachedData());
}
