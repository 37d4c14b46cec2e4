import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

describe("the trained stall model", () => {
  it("is what scripts/train-stall.mjs makes of the training sets (deterministic; --check exits 1 otherwise)", () => {
    const run = spawnSync(process.execPath, [join(ROOT, "scripts/train-stall.mjs"), "--check"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(run.stderr).toContain("the shipped model equals a fresh training");
    expect(run.stderr).toMatch(/held out by writer/);
    expect(run.status).toBe(0);
  }, 600_000);
});
