import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The two lines of the host, newest first: the kit runs on whichever is installed. */
const HOST_PACKAGES = ["@earendil-works/pi-coding-agent", "@mariozechner/pi-coding-agent"] as const;
/** Names a host package folder explicitly (used to test the second line side by side). */
export const HOST_ENV = "PI_CONTEXT_KIT_HOST";

export interface HostPackage {
  name: string;
  version: string;
  dir: string;
  /** URL of the root entry module. */
  entry: string;
  /** Path of the host's own CLI script. */
  cli: string;
}

export class HostNotFound extends Error {
  readonly code = "E_NO_HOST";
}

function packageAt(dir: string): HostPackage {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    name: string;
    version: string;
    main?: string;
    bin?: Record<string, string>;
  };
  return {
    name: manifest.name,
    version: manifest.version,
    dir,
    entry: pathToFileURL(join(dir, manifest.main ?? "dist/index.js")).href,
    cli: join(dir, manifest.bin?.pi ?? "dist/cli.js"),
  };
}

function packageDirOf(resolvedEntry: string): string {
  let dir = dirname(fileURLToPath(resolvedEntry));
  while (!existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) throw new HostNotFound(`no package.json above ${resolvedEntry}`);
    dir = up;
  }
  return dir;
}

/**
 * The host package whose own CLI runs this process (the kit loaded with `pi -e`), or null: the first named
 * package.json above the main script. With both lines installed, the kit must use the one that loaded it.
 */
export function runningHost(mainScript: string | undefined = process.argv[1]): HostPackage | null {
  if (!mainScript) return null;
  let dir: string;
  try {
    dir = dirname(realpathSync(mainScript));
  } catch {
    return null;
  }
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        const name = (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name;
        if (typeof name === "string")
          return (HOST_PACKAGES as readonly string[]).includes(name) ? packageAt(dir) : null;
      } catch {
        return null;
      }
    }
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/**
 * Finds the host package: `PI_CONTEXT_KIT_HOST`, else the host whose CLI runs this process, else the first of
 * HOST_PACKAGES that resolves from the kit.
 */
export function resolveHost(env: NodeJS.ProcessEnv = process.env): HostPackage {
  const explicit = env[HOST_ENV];
  if (explicit) {
    if (!existsSync(join(explicit, "package.json")))
      throw new HostNotFound(`${HOST_ENV}=${explicit}: no package.json there`);
    return packageAt(explicit);
  }
  const running = runningHost();
  if (running) return running;
  for (const name of HOST_PACKAGES) {
    try {
      return packageAt(packageDirOf(import.meta.resolve(name)));
    } catch {
      // not installed: try the other line
    }
  }
  throw new HostNotFound(
    `neither ${HOST_PACKAGES.join(" nor ")} is installed. Install one (npm install @earendil-works/pi-coding-agent, or @mariozechner/pi-coding-agent on Node 20), or set ${HOST_ENV} to its folder.`,
  );
}

/** The host's root exports (loaded once). */
let loaded: Promise<Record<string, unknown>> | undefined;
export function loadHostModule(host: HostPackage = resolveHost()): Promise<Record<string, unknown>> {
  loaded ??= import(host.entry) as Promise<Record<string, unknown>>;
  return loaded;
}

/** `version` (major.minor.patch; missing parts are 0) is `min` or later. */
export function versionAtLeast(version: string | undefined, min: string): boolean {
  const parts = (v: string) => v.split(".").map((part) => Number.parseInt(part, 10) || 0);
  const have = parts(version ?? "0");
  const need = parts(min);
  for (let i = 0; i < need.length; i++) {
    const a = have[i] ?? 0;
    const b = need[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}
