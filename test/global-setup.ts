import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const SOURCES = ["src", "reducers", "projections", "schemas", "bench", "test/synth"];

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Subprocess tests run the built bins: rebuild `dist/` once when a source is newer than it. */
export default function setup(): void {
  const marker = join(ROOT, "dist/src/pi/launch.js");
  const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;
  const sources = Math.max(...SOURCES.map((d) => newestMtime(join(ROOT, d))));
  if (sources <= built) return;
  try {
    execFileSync("npm", ["run", "--silent", "build"], { cwd: ROOT, stdio: "inherit" });
  } catch (error) {
    // Subprocess tests would otherwise run whatever JavaScript was left behind.
    throw new Error(
      `global-setup: npm run build failed, so the built bins cannot be tested: ${(error as Error).message}`,
    );
  }
}
