import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HOST_TOOLS_CONFIG, HostCapabilitiesError, loadHostCapabilities } from "../../src/tools/host-capabilities.js";

let base: string;
let agentDir: string;
let projectRoot: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-host-tools-")));
  agentDir = join(base, "agent");
  projectRoot = join(base, "project");
  mkdirSync(agentDir);
  mkdirSync(projectRoot);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const configPath = () => join(agentDir, HOST_TOOLS_CONFIG);
const config = (value: unknown) =>
  writeFileSync(configPath(), typeof value === "string" ? value : JSON.stringify(value));
const toolModule = (path: string, names: string[], extra = "") =>
  writeFileSync(
    path,
    `${extra}export function createTools(ctx) {
  return ${JSON.stringify(names)}.map((name) => ({
    name, label: name, description: "fixed " + name, parameters: { type: "object", properties: {} },
    async execute() { return { content: [{ type: "text", text: ctx.projectRoot }], details: { name } }; },
  }));
}\n`,
  );
const load = () => loadHostCapabilities({ projectRoot, agentDir });

async function failure(): Promise<HostCapabilitiesError> {
  try {
    await load();
  } catch (error) {
    expect(error).toBeInstanceOf(HostCapabilitiesError);
    expect((error as HostCapabilitiesError).code).toBe("E_HOST_TOOLS");
    return error as HostCapabilitiesError;
  }
  throw new Error("expected loadHostCapabilities to throw");
}

describe("host capabilities", () => {
  it("given no config file, then no tools", async () => {
    expect(await load()).toEqual({ configPath: configPath(), modules: [], tools: [] });
  });

  it("given valid modules under the agent dir, then their tools join the catalog", async () => {
    toolModule(join(agentDir, "checks.mjs"), ["app_lint", "app_typecheck"]);
    config({ version: 1, modules: [join(agentDir, "checks.mjs")] });
    const loaded = await load();
    expect(loaded.modules).toEqual([join(agentDir, "checks.mjs")]);
    expect(loaded.tools.map((t) => t.name)).toEqual(["app_lint", "app_typecheck"]);
    const result = await loaded.tools[0]?.execute("c", {}, undefined, undefined, undefined);
    expect(result?.content[0]).toEqual({ type: "text", text: projectRoot });
  });

  it.each([
    ["bad JSON", () => config("{ version: 1"), /invalid JSON/],
    ["not an object", () => config([1]), /must be a JSON object/],
    ["wrong version", () => config({ version: 2, modules: [] }), /"version" must be 1, found 2/],
    ["missing modules", () => config({ version: 1 }), /"modules" must be an array/],
    ["unknown field", () => config({ version: 1, modules: [], shell: true }), /unknown field\(s\) "shell"/],
    [
      "relative path",
      () => config({ version: 1, modules: ["./checks.mjs"] }),
      /modules\[0\] \(\.\/checks\.mjs\) is not an absolute path/,
    ],
    ["empty entry", () => config({ version: 1, modules: [""] }), /modules\[0\] must be a non-empty string/],
  ])("given %s, then it throws naming the problem and the file", async (_label, arrange, message) => {
    arrange();
    const error = await failure();
    expect(error.message).toMatch(message);
    expect(error.message).toContain(configPath());
    expect(error.file).toBe(configPath());
  });

  it("rejects a module outside the agent dir", async () => {
    toolModule(join(base, "elsewhere.mjs"), ["app_x"]);
    config({ version: 1, modules: [join(base, "elsewhere.mjs")] });
    expect((await failure()).message).toMatch(/modules\[0\] \(.*elsewhere\.mjs\) is outside the agent directory/);
  });

  it("rejects a symlink under the agent dir that resolves outside it", async () => {
    toolModule(join(base, "elsewhere.mjs"), ["app_x"]);
    symlinkSync(join(base, "elsewhere.mjs"), join(agentDir, "linked.mjs"));
    config({ version: 1, modules: [join(agentDir, "linked.mjs")] });
    expect((await failure()).message).toMatch(/resolves to .*elsewhere\.mjs, outside the agent directory/);
  });

  it("rejects a .. path that leaves the agent dir", async () => {
    toolModule(join(base, "elsewhere.mjs"), ["app_x"]);
    config({ version: 1, modules: [join(agentDir, "..", "elsewhere.mjs")] });
    expect((await failure()).message).toMatch(/is outside the agent directory/);
  });

  it("rejects a missing module file and a module without createTools", async () => {
    config({ version: 1, modules: [join(agentDir, "missing.mjs")] });
    expect((await failure()).message).toMatch(/missing\.mjs\) cannot be resolved \(ENOENT\)/);
    writeFileSync(join(agentDir, "empty.mjs"), "export const nothing = 1;\n");
    config({ version: 1, modules: [join(agentDir, "empty.mjs")] });
    expect((await failure()).message).toMatch(/empty\.mjs\) does not export a createTools function/);
  });

  it.each([["read"], ["edit"], ["ls"], ["bash"], ["Shell"], ["powershell"]])(
    "rejects a tool named %s",
    async (name) => {
      toolModule(join(agentDir, `${name}-tool.mjs`), [name]);
      config({ version: 1, modules: [join(agentDir, `${name}-tool.mjs`)] });
      const error = await failure();
      expect(error.message).toContain(`registers "${name}"`);
      expect(error.message).toMatch(/replace a guarded file tool|shell tools are never registered/);
    },
  );

  it("rejects duplicate tool names across modules and malformed tool objects", async () => {
    toolModule(join(agentDir, "a.mjs"), ["app_x"]);
    toolModule(join(agentDir, "b.mjs"), ["app_x"]);
    config({ version: 1, modules: [join(agentDir, "a.mjs"), join(agentDir, "b.mjs")] });
    expect((await failure()).message).toMatch(/modules\[1\] .* registers "app_x" a second time/);
    writeFileSync(
      join(agentDir, "c.mjs"),
      "export const createTools = () => [{ name: 'app_y', label: 'y', description: 'y' }];\n",
    );
    config({ version: 1, modules: [join(agentDir, "c.mjs")] });
    expect((await failure()).message).toMatch(/tool "app_y" has no parameters schema/);
    writeFileSync(join(agentDir, "d.mjs"), "export const createTools = () => ({});\n");
    config({ version: 1, modules: [join(agentDir, "d.mjs")] });
    expect((await failure()).message).toMatch(/createTools did not return an array/);
  });
});
