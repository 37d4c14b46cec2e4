/**
 * Module-loader hooks that let worker threads and child processes run the kit from its TypeScript sources, as the
 * tests do (the built package needs none): `.js` imports resolve to the `.ts` file beside them when there is no
 * `.js`, and `.ts` files are transpiled with the project's own TypeScript (types are not checked here).
 * Registered through `setSourceHooks(url)` of src/cli/file-pool.ts.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
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

export async function load(url, context, next) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return next(url, context);
  ts ??= require("typescript");
  const path = fileURLToPath(url);
  const { outputText } = ts.transpileModule(await readFile(path, "utf8"), {
    fileName: path,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      inlineSourceMap: true,
    },
  });
  return { format: "module", source: outputText, shortCircuit: true };
}
