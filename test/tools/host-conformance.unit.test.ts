import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolDefinition as PiToolDefinition } from "@mariozechner/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { createPolicy } from "../../src/policy/index.js";
import { createMemoryDenialTracker } from "../../src/tools/denial-tracker.js";
import { createGuardedTools, FILE_TOOL_NAMES } from "../../src/tools/guarded-tools.js";
import { host } from "../helpers/host.js";

const root = mkdtempSync(join(tmpdir(), "ctx-conformance-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const tools = createGuardedTools({
  policy: createPolicy({ root, protectedDirs: [] }),
  denials: createMemoryDenialTracker(),
});

const hostFactories = {
  read: host.createReadToolDefinition,
  grep: host.createGrepToolDefinition,
  find: host.createFindToolDefinition,
  ls: host.createLsToolDefinition,
  write: host.createWriteToolDefinition,
  edit: host.createEditToolDefinition,
};

describe("guarded tools keep the host's tool contract", () => {
  it.each(FILE_TOOL_NAMES)("%s has exactly the host's name and input schema", (name) => {
    const native = hostFactories[name](root);
    expect(tools[name].name).toBe(native.name);
    expect(tools[name].parameters).toEqual(JSON.parse(JSON.stringify(native.parameters)));
  });

  it("is assignable to Pi's ToolDefinition", () => {
    const asPi: PiToolDefinition[] = [tools.read, tools.grep, tools.find, tools.ls, tools.write, tools.edit];
    expect(asPi.map((t) => t.name)).toEqual([...FILE_TOOL_NAMES]);
  });
});
