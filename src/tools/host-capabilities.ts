import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { detectCaseInsensitive, makeFold } from "../policy/case-fold.js";
import { partsBelow } from "../policy/path-parts.js";
import { errorCode, nodePolicyFs } from "../policy/policy-fs.js";
import { FILE_TOOL_NAMES } from "./guarded-tools.js";
import type { ToolDefinition } from "./tool-types.js";

export const HOST_TOOLS_CONFIG = "context-kit-host-tools.json";
export const RESERVED_TOOL_NAMES: readonly string[] = [...FILE_TOOL_NAMES, "bash", "shell", "powershell"];
const MAX_CONFIG_BYTES = 64 * 1024;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export interface HostCapabilityContext {
  projectRoot: string;
  agentDir: string;
}

export interface HostCapabilities {
  configPath: string;
  /** Canonical paths of the modules that were loaded. */
  modules: string[];
  tools: ToolDefinition[];
}

/** Malformed host configuration: the caller blocks startup with this message. */
export class HostCapabilitiesError extends Error {
  readonly code = "E_HOST_TOOLS";
  constructor(
    readonly file: string,
    what: string,
  ) {
    super(`context-kit host tools: ${file}: ${what}`);
    this.name = "HostCapabilitiesError";
  }
}

function readConfig(configPath: string): unknown {
  const fail = (what: string) => new HostCapabilitiesError(configPath, what);
  const stat = lstatSync(configPath);
  if (!stat.isFile()) throw fail("is not a regular file");
  if (stat.size > MAX_CONFIG_BYTES) throw fail(`is ${stat.size} bytes; the limit is ${MAX_CONFIG_BYTES}`);
  try {
    return JSON.parse(readFileSync(configPath, "utf8"));
  } catch (error) {
    throw fail(`invalid JSON: ${(error as Error).message}`);
  }
}

function moduleList(config: unknown, fail: (what: string) => Error): string[] {
  if (typeof config !== "object" || config === null || Array.isArray(config)) throw fail("must be a JSON object");
  const extra = Object.keys(config).filter((k) => k !== "version" && k !== "modules");
  if (extra.length > 0) throw fail(`unknown field(s) ${extra.map((k) => JSON.stringify(k)).join(", ")}`);
  const { version, modules } = config as { version?: unknown; modules?: unknown };
  if (version !== 1) throw fail(`"version" must be 1, found ${JSON.stringify(version)}`);
  if (!Array.isArray(modules)) throw fail(`"modules" must be an array of absolute paths`);
  return modules.map((m, i) => {
    if (typeof m !== "string" || m === "") throw fail(`modules[${i}] must be a non-empty string`);
    return m;
  });
}

function checkTool(tool: unknown, fail: (what: string) => Error): ToolDefinition {
  if (typeof tool !== "object" || tool === null) throw fail("returned a tool that is not an object");
  const t = tool as Partial<Record<keyof ToolDefinition, unknown>>;
  if (typeof t.name !== "string" || !TOOL_NAME.test(t.name))
    throw fail(`returned a tool with invalid name ${JSON.stringify(t.name)}`);
  const lower = t.name.toLowerCase();
  if ((FILE_TOOL_NAMES as readonly string[]).includes(lower)) {
    throw fail(`registers "${t.name}", which would replace a guarded file tool`);
  }
  if (RESERVED_TOOL_NAMES.includes(lower)) throw fail(`registers "${t.name}"; shell tools are never registered`);
  for (const field of ["label", "description"] as const) {
    if (typeof t[field] !== "string") throw fail(`tool "${t.name}" has no string ${field}`);
  }
  if (typeof t.parameters !== "object" || t.parameters === null)
    throw fail(`tool "${t.name}" has no parameters schema`);
  if (typeof t.execute !== "function") throw fail(`tool "${t.name}" has no execute function`);
  return tool as ToolDefinition;
}

/**
 * Trusted host capabilities listed in `<agentDir>/context-kit-host-tools.json` (`{"version": 1, "modules": [...]}`).
 * No file: no tools. Anything malformed throws a HostCapabilitiesError saying what and where.
 */
export async function loadHostCapabilities(context: HostCapabilityContext): Promise<HostCapabilities> {
  const agentDir = resolve(context.agentDir);
  const configPath = join(agentDir, HOST_TOOLS_CONFIG);
  const none: HostCapabilities = { configPath, modules: [], tools: [] };
  try {
    lstatSync(configPath);
  } catch (error) {
    if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return none;
    throw new HostCapabilitiesError(configPath, `cannot be read (${errorCode(error) ?? String(error)})`);
  }
  const fail = (what: string) => new HostCapabilitiesError(configPath, what);
  const specs = moduleList(readConfig(configPath), fail);
  const agentReal = realpathSync.native(agentDir);
  const fold = makeFold(detectCaseInsensitive(agentReal, nodePolicyFs));
  const modules: string[] = [];
  const tools: ToolDefinition[] = [];
  for (const [i, spec] of specs.entries()) {
    const where = (what: string) => fail(`modules[${i}] (${spec}) ${what}`);
    if (!isAbsolute(spec)) throw where("is not an absolute path");
    const lexical = resolve(spec);
    if (!partsBelow(agentDir, lexical, fold) && !partsBelow(agentReal, lexical, fold)) {
      throw where(`is outside the agent directory ${agentDir}`);
    }
    let real: string;
    try {
      real = realpathSync.native(lexical);
    } catch (error) {
      throw where(`cannot be resolved (${errorCode(error) ?? String(error)})`);
    }
    if (!partsBelow(agentReal, real, fold))
      throw where(`resolves to ${real}, outside the agent directory ${agentReal}`);
    if (!lstatSync(real).isFile()) throw where("is not a regular file");
    if (modules.includes(real)) throw where("is listed twice");
    let loaded: { createTools?: unknown };
    try {
      loaded = await import(pathToFileURL(real).href);
    } catch (error) {
      throw where(`failed to load: ${(error as Error).message}`);
    }
    if (typeof loaded.createTools !== "function") throw where("does not export a createTools function");
    const created: unknown = await loaded.createTools({ projectRoot: context.projectRoot, agentDir });
    if (!Array.isArray(created)) throw where("createTools did not return an array of tool definitions");
    for (const tool of created) {
      const checked = checkTool(tool, where);
      if (tools.some((t) => t.name === checked.name)) throw where(`registers "${checked.name}" a second time`);
      tools.push(checked);
    }
    modules.push(real);
  }
  return { configPath, modules, tools };
}
