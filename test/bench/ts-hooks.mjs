/**
 * Module-loader hooks that let worker threads and child processes run the kit from its TypeScript sources, as the
 * tests do (the built package needs none): `.js` imports resolve to the `.ts` file beside them when there is no
 * `.js`, and `.ts` files are transpiled with the project's own TypeScript (types are not checked here).
 * Registered through `setSourceHooks(url)` of src/files/file-pool.ts.
 * Each transpiled file is kept in node_modules/.cache, keyed by its path and text: every worker and child after the
 * first loads neither TypeScript nor transpiles again.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { threadId } from "node:worker_threads";

const require = createRequire(import.meta.url);
const CACHE = fileURLToPath(new URL("../../node_modules/.cache/context-kit-ts-hooks/", import.meta.url));
let ts;

export async function resolve(specifier, context, next) {
  const parent = context.parentURL;
  if (
    parent?.startsWith("file:") &&
    parent.endsWith(".ts") &&
    specifier.endsWith(".js") &&
    /^\.{1,2}\//.test(specifier)
  ) {
    const url = new URL(specifier, parent);
    if (!existsSync(fileURLToPath(url))) {
      const source = new URL(`${url.href.slice(0, -3)}.ts`);
      if (existsSync(fileURLToPath(source))) return { url: source.href, format: "module", shortCircuit: true };
    }
  }
  return next(specifier, context);
}

function transpile(path, text) {
  ts ??= require("typescript");
  return ts.transpileModule(text, {
    fileName: path,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      inlineSourceMap: true,
    },
  }).outputText;
}

export async function load(url, context, next) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return next(url, context);
  const path = fileURLToPath(url);
  const text = await readFile(path, "utf8");
  const cached = `${CACHE}${createHash("sha256").update(path).update("\0").update(text).digest("hex")}.js`;
  let source;
  try {
    source = readFileSync(cached, "utf8");
  } catch {
    source = transpile(path, text);
    try {
      mkdirSync(CACHE, { recursive: true });
      // Written whole, then renamed: a reader in another thread or process never sees half a file.
      const partial = `${cached}.${process.pid}-${threadId}`;
      writeFileSync(partial, source);
      renameSync(partial, cached);
    } catch {
      // no cache this time; the transpiled text is still right
    }
  }
  return { format: "module", source, shortCircuit: true };
}
