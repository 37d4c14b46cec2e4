import "../helpers/faux-env.js";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KIT } from "../../reducers/contract/kit-entries.js";
import { loadSession } from "../../src/session.js";
import { stalledSchoolSession } from "../../src/synth/school-session.js";
import { cleanupFauxHarnesses, createFauxHarness, pi, writeFiles } from "../helpers/faux-sdk.js";
import { expectViewsReproduceRequests } from "../helpers/recorded-requests.js";

afterAll(() => cleanupFauxHarnesses());

describe("branch replay from the original stalled position", () => {
  it("puts one marker on the new branch only; the other branches stay untouched in the same append-only file", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "ck-branch-"));
    writeFiles(cwd, { "models/school-service.xml": "<model/>", "docs/application-guide.md": "# Guide" });
    const file = join(cwd, "session.jsonl");
    const stalled = stalledSchoolSession(cwd);
    writeFileSync(file, stalled.toJsonl());
    const stalledLeaf = stalled.leafId as string;

    const h = await createFauxHarness({
      sessionFile: file,
      extensionFactories: [(await import("../../src/pi/kit-extension.js")).createKitExtension()],
    });
    h.script([
      { text: "Reading.", toolCalls: [{ name: "read", args: { path: "models/school-service.xml" } }] },
      { text: "Scenarios, first run." },
      { text: "Reading the guide.", toolCalls: [{ name: "read", args: { path: "docs/application-guide.md" } }] },
      { text: "Scenarios, validation replay." },
    ]);
    await h.prompt("Describe the business scenarios.");
    const firstRun = readFileSync(file);
    await h.session.navigateTree(stalledLeaf, { summarize: false });
    await h.prompt("Describe the business scenarios (validation replay).");
    await h.dispose();

    const after = readFileSync(file);
    expect(after.subarray(0, firstRun.length).equals(firstRun)).toBe(true);
    const { tree } = loadSession(file);
    const markers = tree.entries.filter((e) => e.type === "custom_message" && e.customType === KIT.recoveryMarker);
    expect(markers).toHaveLength(2);
    const leaves = tree.leaves();
    expect(leaves).toHaveLength(2);
    for (const leaf of leaves) {
      const onBranch = tree.pathTo(leaf).filter((e) => markers.includes(e));
      expect(onBranch).toHaveLength(1);
      expect(tree.pathTo(leaf).map((e) => e.id)).toContain(stalledLeaf);
    }
    expect(tree.commonAncestor(leaves[0]!, leaves[1]!)).toBe(stalledLeaf);
    const replayRequest = h.requests[2]!;
    expect(replayRequest.messages.some((m) => m.text.includes("Scenarios, first run."))).toBe(false);
    expect(expectViewsReproduceRequests(file, h.requests, pi.convertToLlm as never)).toBe(4);
  });
});
