import "../helpers/faux-env.js";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KIT } from "../../reducers/contract/kit-entries.js";
import { HOST_TOOLS_CONFIG } from "../../src/tools/host-capabilities.js";
import {
  cleanupFauxHarnesses,
  createFauxHarness,
  type FauxHarness,
  type FauxStep,
  requestText,
} from "../helpers/faux-sdk.js";

const base = realpathSync(mkdtempSync(join(tmpdir(), "ck-verify-")));
afterAll(() => {
  cleanupFauxHarnesses();
  rmSync(base, { recursive: true, force: true });
});

const EXAMPLE = join(import.meta.dirname, "..", "..", "src", "tools", "examples", "app-checks.ts");
const PASSING =
  'import test from "node:test";\nimport assert from "node:assert";\nimport { add } from "../src/math.mjs";\ntest("adds", () => assert.equal(add(1, 2), 3));\n';

let counter = 0;
function project(
  tests: Record<string, string> = { "math.test.mjs": PASSING },
  source = "export const add = (a, b) => a + b;\n",
) {
  const root = join(base, `p${++counter}`);
  mkdirSync(join(root, "project", "test"), { recursive: true });
  mkdirSync(join(root, "project", "src"), { recursive: true });
  mkdirSync(join(root, "agent"));
  const cwd = join(root, "project");
  writeFileSync(
    join(cwd, "package.json"),
    JSON.stringify({
      name: "fixture",
      version: "1.0.0",
      private: true,
      scripts: { build: "node --check src/math.mjs", test: "node --test test/" },
    }),
  );
  writeFileSync(join(cwd, "src", "math.mjs"), source);
  for (const [name, body] of Object.entries(tests)) writeFileSync(join(cwd, "test", name), body);
  const agentDir = join(root, "agent");
  writeFileSync(join(agentDir, "app-checks.mjs"), `export { createTools } from ${JSON.stringify(EXAMPLE)};\n`);
  writeFileSync(
    join(agentDir, HOST_TOOLS_CONFIG),
    JSON.stringify({ version: 1, modules: [join(agentDir, "app-checks.mjs")] }),
  );
  return { cwd, agentDir, sessionFile: join(root, "session.jsonl") };
}

async function kitHarness(p: ReturnType<typeof project>, script: FauxStep[]): Promise<FauxHarness> {
  const { createKitExtension } = await import("../../src/pi/kit-extension.js");
  return createFauxHarness({
    cwd: p.cwd,
    sessionFile: p.sessionFile,
    extensionFactories: [createKitExtension({ policyRoot: p.cwd, agentDir: p.agentDir })],
    script,
  });
}

const kitEntries = (h: FauxHarness, customType: string) =>
  h.entries().filter((e) => e.type === "custom_message" && e.customType === customType);

describe("completion verification on the real host", () => {
  it("an edit then stop: one report with real results, then the model continues with it", async () => {
    const p = project();
    const h = await kitHarness(p, [
      {
        text: "Editing.",
        toolCalls: [{ name: "edit", args: { path: "src/math.mjs", edits: [{ oldText: "a + b", newText: "b + a" }] } }],
      },
      { text: "Done: swapped the operands." },
      { text: "Build and tests pass." },
    ]);
    const t0 = Date.now();
    await h.prompt("Swap the operands in add.");
    console.log("took", Date.now() - t0);
    console.log(h.requests.map((r) => requestText(r)).join("\n=====\n"));
    console.log(JSON.stringify(h.entries().slice(3), null, 1));
    console.log(h.extensionErrors);
    await h.dispose();
  });
});
