import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../src/package-root.js";

export const HOST_PACKAGE = "@mariozechner/pi-coding-agent";

type HostEntry = Record<string, unknown>;

/** The part of the host's `SessionManager` the live kit reads (its `ReadonlySessionManager`), plus appends. */
export interface HostSessionManager {
  getEntry(id: string): unknown;
  getLeafId(): string | null;
  getSessionFile(): string | undefined;
  getSessionId(): string;
  getBranch(): unknown[];
  buildSessionContext(): { messages: unknown[] };
  appendMessage(message: unknown): string;
  appendCustomMessageEntry(customType: string, content: string, display: boolean, details?: unknown): string;
  appendCustomEntry(customType: string, data?: unknown): string;
}

/** The part of the host's offline API the benchmark compares against (PI-HOST-NOTES §1.7). */
export interface HostApi {
  version: string;
  parseSessionEntries(text: string): HostEntry[];
  migrateSessionEntries(entries: HostEntry[]): void;
  buildSessionContext(
    entries: HostEntry[],
    leafId?: string | null,
    byId?: Map<string, HostEntry>,
  ): { messages: unknown[]; thinkingLevel: string; model: unknown };
  SessionManager: { open(path: string, sessionDir?: string): HostSessionManager };
  createGrepToolDefinition(cwd: string): HostTool;
  createFindToolDefinition(cwd: string): HostTool;
  createLsToolDefinition(cwd: string): HostTool;
}

/** One of the host's built-in tools, as its definition factory returns it. */
export interface HostTool {
  execute(
    id: string,
    params: Record<string, unknown>,
    signal?: unknown,
    onUpdate?: unknown,
    ctx?: unknown,
  ): Promise<unknown>;
}

let cached: Promise<HostApi> | undefined;

/**
 * Imports the host package, only when a benchmark runs: the kit never loads its host anywhere else but `src/pi`.
 * Resolved from the kit's own folder, where it is a dev dependency.
 */
export function loadHost(): Promise<HostApi> {
  cached ??= (async () => {
    let module: Omit<HostApi, "version">;
    try {
      module = (await import(HOST_PACKAGE)) as Omit<HostApi, "version">;
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`the benchmark needs the host package ${HOST_PACKAGE} (a dev dependency): ${why}`);
    }
    return {
      version: hostVersion(),
      parseSessionEntries: module.parseSessionEntries,
      migrateSessionEntries: module.migrateSessionEntries,
      buildSessionContext: module.buildSessionContext,
      SessionManager: module.SessionManager,
      createGrepToolDefinition: module.createGrepToolDefinition,
      createFindToolDefinition: module.createFindToolDefinition,
      createLsToolDefinition: module.createLsToolDefinition,
    };
  })();
  return cached;
}

function hostVersion(): string {
  try {
    const manifest = join(packageRoot(), "node_modules", HOST_PACKAGE, "package.json");
    return String(JSON.parse(readFileSync(manifest, "utf8")).version);
  } catch {
    return "unknown";
  }
}

export interface HostLoad {
  entries: HostEntry[];
  context: { messages: unknown[] };
}

/**
 * The host's own read-only load of a session file: read the text, `parseSessionEntries`, `migrateSessionEntries`,
 * then `buildSessionContext` for the active leaf (PI-HOST-NOTES §1.7).
 */
export function hostLoad(host: HostApi, file: string): HostLoad {
  const all = host.parseSessionEntries(readFileSync(file, "utf8"));
  host.migrateSessionEntries(all);
  const entries = all.filter((e) => e.type !== "session");
  return { entries, context: host.buildSessionContext(entries) };
}

/** The host's read, parse and migrate without building a context: the work the kit's load does. */
export function hostParse(host: HostApi, file: string): number {
  const all = host.parseSessionEntries(readFileSync(file, "utf8"));
  host.migrateSessionEntries(all);
  return all.length;
}
