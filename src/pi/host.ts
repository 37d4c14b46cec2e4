import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The two lines of the host, newest first: the kit runs on whichever is installed. */
export const HOST_PACKAGES = ["@earendil-works/pi-coding-agent", "@mariozechner/pi-coding-agent"] as const;
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

/** Finds the host package: `PI_CONTEXT_KIT_HOST`, else the first of HOST_PACKAGES that resolves from the kit. */
export function resolveHost(env: NodeJS.ProcessEnv = process.env): HostPackage {
  const explicit = env[HOST_ENV];
  if (explicit) {
    if (!existsSync(join(explicit, "package.json")))
      throw new HostNotFound(`${HOST_ENV}=${explicit}: no package.json there`);
    return packageAt(explicit);
  }
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
