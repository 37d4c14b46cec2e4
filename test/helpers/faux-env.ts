/**
 * Side-effect module: points Pi at a temporary agent dir and turns off its network startup work. Import it as the
 * FIRST import of a test file that loads Pi in-process (faux-sdk.ts imports it too):
 *
 *   import "../helpers/faux-env.js";
 *
 * Why a separate module: Pi's tools-manager reads the agent dir once at module load (the rg/fd bin dir), so the env
 * must be set before ANY import evaluates Pi. Biome's import sorting may move named imports (e.g. of faux-sdk.js)
 * below `@mariozechner/...` or `./host.js` imports; a bare side-effect import stays where it is.
 *
 * Idempotent. Never uses a real ~/.pi: an already set PI_CODING_AGENT_DIR is overridden.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const KEY = "__piFauxEnvRoot";
const g = globalThis as { [KEY]?: string };

if (g[KEY] === undefined) {
  const root = mkdtempSync(join(tmpdir(), "pi-faux-env-"));
  g[KEY] = root;
  process.env.PI_CODING_AGENT_DIR = join(root, "agent");
  process.env.PI_OFFLINE = "1";
  process.env.PI_SKIP_VERSION_CHECK = "1";
  process.env.PI_TELEMETRY = "0";
  mkdirSync(process.env.PI_CODING_AGENT_DIR, { recursive: true });
  process.once("exit", () => rmSync(root, { recursive: true, force: true }));
}

/** The temp folder holding the process-wide PI_CODING_AGENT_DIR. */
export const FAUX_ENV_ROOT: string = g[KEY];

/**
 * Removes FAUX_ENV_ROOT. Vitest workers often end without Node's "exit" event, so call this in afterAll (via
 * cleanupFauxHarnesses) once nothing in the process uses Pi any more. The env vars keep pointing at the removed path.
 */
export function cleanupFauxEnv(): void {
  rmSync(FAUX_ENV_ROOT, { recursive: true, force: true });
}
