import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppCheckDetails, createAppCheckTools } from "../../src/tools/examples/app-checks.js";
import { parseTestsRun } from "../../src/tools/examples/test-count.js";
import { HOST_TOOLS_CONFIG, loadHostCapabilities } from "../../src/tools/host-capabilities.js";
import type { ToolDefinition, ToolResult } from "../../src/tools/tool-types.js";

describe("parseTestsRun", () => {
  it.each([
    ["TAP v13\n1..3\n# tests 3\n# pass 3\n", 3],
    ["ℹ tests 0\nℹ suites 0\n", 0],
    ["Tests:       1 failed, 2 passed, 3 total\n", 3],
    [" Test Files  1 passed (1)\n      Tests  4 passed (4)\n", 4],
    ["5 passed, 2 failed\n", 7],
    ["  2 passing (10ms)\n  1 failing\n", 2],
    ["1 failed, 6 passed in 0.2s\n", 7],
    ["compiled fine\n", undefined],
  ])("%j → %s", (output, expected) => {
    expect(parseTestsRun(output)).toBe(expected);
  });
});

const EXAMPLE = join(import.meta.dirname, "..", "..", "src", "tools", "examples", "app-checks.ts");

describe.concurrent("example app-check capability, loaded through the host config", () => {
  let base: string;
  let agentDir: string;
  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-app-checks-")));
    agentDir = join(base, "agent");
    mkdirSync(agentDir);
    writeFileSync(join(agentDir, "app-checks.mjs"), `export { createTools } from ${JSON.stringify(EXAMPLE)};\n`);
    writeFileSync(
      join(agentDir, HOST_TOOLS_CONFIG),
      JSON.stringify({ version: 1, modules: [join(agentDir, "app-checks.mjs")] }),
    );
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  function project(name: string, scripts: Record<string, string>, tests: Record<string, string>): string {
    const root = join(base, name);
    mkdirSync(join(root, "test"), { recursive: true });
    writeFileSync(join(root, "package.json"), JSON.stringify({ name, version: "1.0.0", private: true, scripts }));
    for (const [file, body] of Object.entries(tests)) writeFileSync(join(root, "test", file), body);
    return root;
  }

  async function checks(projectRoot: string) {
    const { tools } = await loadHostCapabilities({ projectRoot, agentDir });
    const byName = Object.fromEntries(tools.map((t) => [t.name, t])) as Record<string, ToolDefinition>;
    const run = async (name: string) => {
      const r = (await byName[name]?.execute("c", {}, undefined, undefined, undefined)) as ToolResult<AppCheckDetails>;
      return { details: r.details, text: r.content.map((c) => (c.type === "text" ? c.text : "")).join("") };
    };
    return { names: tools.map((t) => t.name), run };
  }

  const passing = 'import test from "node:test";\ntest("adds", () => {});\ntest("subtracts", () => {});\n';
  const failing =
    'import test from "node:test";\nimport assert from "node:assert";\ntest("breaks", () => assert.equal(1, 2));\n';

  it("registers app_build and app_test with no parameters", async () => {
    const { names } = await checks(project("names", {}, {}));
    expect(names).toEqual(["app_build", "app_test"]);
  });

  it("reports a passing build and test run with the number of tests", async () => {
    const root = project(
      "passing",
      { build: 'node -e "process.exit(0)"', test: "node --test test/" },
      { "a.test.mjs": passing },
    );
    const { run } = await checks(root);
    const [build, test] = await Promise.all([run("app_build"), run("app_test")]);
    expect(build.details).toEqual({ check: "app_build", status: "passed", exitCode: 0 });
    expect(test.details).toEqual({ check: "app_test", status: "passed", exitCode: 0, testsRun: 2 });
    expect(test.text).toMatch(/^app_test: passed \(exit 0, 2 tests ran\)/);
  });

  it("reports failures as failed with the exit code", async () => {
    const root = project(
      "failing",
      { build: 'node -e "process.exit(3)"', test: "node --test test/" },
      { "a.test.mjs": failing },
    );
    const { run } = await checks(root);
    const [build, test] = await Promise.all([run("app_build"), run("app_test")]);
    expect(build.details).toEqual({ check: "app_build", status: "failed", exitCode: 3 });
    expect(test.details).toEqual({ check: "app_test", status: "failed", exitCode: 1, testsRun: 1 });
  });

  it("reports a run that times out as error and bounds the output shown", async () => {
    const root = project(
      "slow",
      {
        build: "node -e \"console.log('x'.repeat(5000)); setTimeout(() => {}, 10000)\"",
        test: "node -e \"console.log('y'.repeat(5000))\"",
      },
      {},
    );
    const [build] = createAppCheckTools({ projectRoot: root, timeoutMs: 1500 });
    const [, test] = createAppCheckTools({ projectRoot: root, maxOutputBytes: 100 });
    const [b, t] = (await Promise.all([
      build?.execute("c", {}, undefined, undefined, undefined),
      test?.execute("c", {}, undefined, undefined, undefined),
    ])) as ToolResult<AppCheckDetails>[];
    expect(b?.details).toEqual({ check: "app_build", status: "error", exitCode: null });
    const shown = t?.content[0]?.type === "text" ? t.content[0].text : "";
    expect(shown).toContain("[... earlier output omitted]");
    expect(shown.length).toBeLessThan(300);
  });

  it("reports zero executed tests as no_tests", async () => {
    const root = project("empty", { test: "node --test" }, {});
    const { run } = await checks(root);
    const [build, test] = await Promise.all([run("app_build"), run("app_test")]);
    expect(test.details).toEqual({ check: "app_test", status: "no_tests", exitCode: 0, testsRun: 0 });
    expect(build.details).toMatchObject({ status: "failed" });
  });
});
