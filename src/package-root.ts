import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/** The kit's own package folder, found from this module whether it runs from `src/` or `dist/src/`. */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === "pi-context-kit") {
      cached = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("pi-context-kit: cannot find the package folder");
    dir = parent;
  }
}

let version: string | undefined;

/** The kit's version, read once (`check` asks for it for every file). */
export function kitVersion(): string {
  version ??= JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")).version as string;
  return version;
}
