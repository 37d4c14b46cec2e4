import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../package-root.js";

/** Where `npm run build` writes the bundle of `src/report/client/` (TypeScript, bundled by esbuild). */
const CLIENT_BUNDLE = "dist/report-client.js";

let cached: string | undefined;

/** The session page's whole script: reads the embedded model and renders it. No imports, no network. */
export function clientScript(): string {
  if (cached === undefined) {
    const path = join(packageRoot(), CLIENT_BUNDLE);
    try {
      cached = readFileSync(path, "utf8");
    } catch {
      throw new Error(`context-kit report: the page script ${path} is missing; run npm run build`);
    }
  }
  return cached;
}
