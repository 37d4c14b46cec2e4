import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { runCli } from "../../src/cli/run.js";

// An invariant that breaks on every view: what `check` says of a violation, whatever the view.
vi.mock("../../projections/invariants.js", async (original) => ({
  ...(await original<typeof import("../../projections/invariants.js")>()),
  checkView: () => [{ code: "TOOL_PAIRING", message: "view[3]: RESULT_WITHOUT_CALL for tool call c1" }],
}));

const SAMPLES = join(import.meta.dirname, "../../evidence-samples");
const BRANCHED = "branched-school-session.jsonl";

describe("check", () => {
  it("exits 1 with {leafId, code, message} per violation when an invariant breaks", async () => {
    const out = await runCli(["check", BRANCHED, "--json"], { cwd: SAMPLES });
    expect(out.exitCode).toBe(1);
    const doc = JSON.parse(out.stdout);
    expect(doc.files[0].violations).toHaveLength(2);
    expect(doc.files[0].violations[0]).toEqual({
      leafId: expect.stringMatching(/^[0-9a-f]{8}$/),
      code: "TOOL_PAIRING",
      message: "view[3]: RESULT_WITHOUT_CALL for tool call c1",
    });
    const text = await runCli(["check", BRANCHED], { cwd: SAMPLES });
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toMatch(/2 branches, 2 violations\n {2}leaf [0-9a-f]{8}: TOOL_PAIRING: /);
  });
});
