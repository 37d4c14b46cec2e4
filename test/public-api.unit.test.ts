import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as kit from "../src/index.js";

describe("the public API", () => {
  it("reads, folds, views and checks a session through src/index.ts alone", () => {
    const b = new kit.SessionBuilder();
    b.user("Describe the scenarios.");
    for (let i = 0; i < 3; i++) b.assistant("Let me check the compiler errors first.");
    const file = join(mkdtempSync(join(tmpdir(), "ck-api-")), "s.jsonl");
    writeFileSync(file, b.toJsonl());
    const { tree, diagnostics } = kit.loadSession(file);
    expect(diagnostics).toEqual([]);
    const fold = kit.foldTree(tree);
    const state = fold.stateAt(tree.activeLeafId);
    expect(kit.isStalled(state.recovery)).toBe(true);
    expect(kit.summarizeState(state).recovery.promiseEntryIds).toHaveLength(3);
    const view = kit.viewOfLeaf(tree, fold, null);
    expect(view.messages).toEqual(kit.buildHostContext(tree).messages);
    expect(typeof kit.createKitExtension()).toBe("function");
    for (let i = 0; i < 4; i++) b.toolRound("ls", { path: "." }, "a.txt");
    writeFileSync(file, b.toJsonl());
    const looping = kit.loadSession(file).tree;
    const loop = kit.toolLoopReport(kit.foldTree(looping).stateAt(looping.activeLeafId).toolLoop);
    expect(loop?.kind).toBe("repeat");
    expect(kit.TOOL_LOOP_THRESHOLDS.repeat).toBe(4);
  });
});
