import { execFile } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";

const ROOT = join(import.meta.dirname, "../..");
const BIN = join(ROOT, "dist/src/cli/main.js");
const SAMPLE = "evidence-samples/stalled-school-session.jsonl";
const run = promisify(execFile);

/** Runs the built bin as a user would; a failing exit is a result here, not an exception. */
async function bin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// test/global-setup.ts rebuilds dist/ when a source is newer than it (`npm ci` builds it through `prepare`).
beforeAll(() => {
  expect(existsSync(BIN), `${BIN} is missing: run npm run build`).toBe(true);
  const sources = ["src/cli/commands/inspect.ts", "src/cli/run.ts", "src/log/read-session.ts"];
  for (const source of sources) {
    expect(statSync(BIN).mtimeMs, `dist/ is older than ${source}: run npm run build`).toBeGreaterThanOrEqual(
      statSync(join(ROOT, source)).mtimeMs,
    );
  }
});

describe("the built context-kit bin", () => {
  it(`node dist/src/cli/main.js inspect ${SAMPLE}`, async () => {
    const out = await bin(["inspect", SAMPLE]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout.split("\n").slice(0, 6)).toEqual([
      SAMPLE,
      "  session 01a16ecb-97a2-771e-b335-b7aca163bc36  v3  2026-10-24T16:43:18.000Z  cwd /home/ai/t003",
      "  96 entries: message:assistant 47, message:user 25, message:toolResult 22, model_change 1, thinking_level_change 1",
      "  roots 1, leaves 1, branch points 0, compactions 0, labels 0",
      "  active leaf 0000705f",
      "    leaf 0000705f depth 95  (active)",
    ]);
  });

  it("prints the same --json as the command run in-process", async () => {
    const out = await bin(["inspect", SAMPLE, "--json"]);
    expect(out.code).toBe(0);
    const inProcess = await runCli(["inspect", SAMPLE, "--json"], { cwd: ROOT });
    expect(JSON.parse(out.stdout)).toEqual(JSON.parse(inProcess.stdout));
  });

  it("exits 2 with the file and a code on stderr for a missing file", async () => {
    const out = await bin(["inspect", "evidence-samples/missing.jsonl"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toBe("context-kit inspect: E_READ: evidence-samples/missing.jsonl: no such file or folder\n");
  });

  it("exits 2 for a file that is not a session", async () => {
    const out = await bin(["inspect", "package.json"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^context-kit inspect: E_\w+: package\.json: not a Pi session file/);
  });
});
