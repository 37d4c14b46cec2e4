import { describe, expect, it } from "vitest";
import { FLAG } from "../../src/report/entry-kinds.js";
import { buildPageModel } from "../../src/report/page-model.js";
import { formatSummary } from "../../src/report/session-summary.js";
import { loadSessionText } from "../../src/session.js";
import { SessionBuilder } from "../synth/session-builder.js";

describe("tool-loop episodes and host echoes in the report", () => {
  it("marks every call and result of an escaped episode, counts it with its wasted calls, and labels a mirror", () => {
    const b = new SessionBuilder();
    b.user("fix the build");
    const loop = Array.from({ length: 3 }, () =>
      b.toolRound("read", { path: "missing.ts" }, "ENOENT: missing.ts", undefined, true),
    );
    const after = b.toolRound("ls", { path: "." }, "a.ts");
    const mirror = b.hostEcho("Done.");
    const model = buildPageModel("s.jsonl", loadSessionText("s.jsonl", b.toJsonl()));
    const flagsOf = (id: string) => model.entries.flags[model.entries.ids.indexOf(id)] as number;
    for (const round of loop) {
      expect(flagsOf(round.call) & FLAG.loop).toBe(FLAG.loop);
      expect(flagsOf(round.result) & FLAG.loop).toBe(FLAG.loop);
    }
    expect(flagsOf(after.call) & FLAG.loop).toBe(0);
    expect(flagsOf(mirror) & FLAG.hostEcho).toBe(FLAG.hostEcho);
    expect(flagsOf(after.result) & FLAG.hostEcho).toBe(0);
    expect(model.summary.toolLoopLeaves).toBe(0);
    expect(model.summary.toolLoopEpisodes).toBe(1);
    expect(model.summary.toolLoopWastedCalls).toBe(2);
    expect(formatSummary(model.summary)).toContain("1 tool-loop episode (2 calls wasted)");
  });
});
