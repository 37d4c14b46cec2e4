import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { compareGolden } from "../helpers/golden.js";
import { EVIDENCE_SAMPLES } from "../synth/evidence.js";

const DIR = join(import.meta.dirname, "../../evidence-samples");

describe.each(Object.keys(EVIDENCE_SAMPLES))("evidence sample %s", (name) => {
  it("is exactly what its deterministic generator writes", () => {
    compareGolden(join(DIR, name), (EVIDENCE_SAMPLES[name] as () => { toJsonl(): string })().toJsonl());
  });

  it.each(["replay", "detect", "view"])("matches its expected `%s --json` output", async (command) => {
    const out = await runCli([command, name, "--json"], { cwd: DIR });
    expect(out.stderr).toBe("");
    expect(out.exitCode).toBe(0);
    compareGolden(join(DIR, name.replace(/\.jsonl$/, `.${command}.json`)), out.stdout);
  });
});
