import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

describe("the learned run scorer's weights", () => {
  it("are what scripts/train-run-model.mjs makes of the dev folders (deterministic; --check exits 1 otherwise)", () => {
    const out = execFileSync(process.execPath, [join(ROOT, "scripts/train-run-model.mjs"), "--check"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(out).toContain("matches a fresh training");
  }, 180_000);
});
