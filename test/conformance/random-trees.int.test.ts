import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadSessionText } from "../../src/session.js";
import { buildHostContext } from "../../src/tree/host-context.js";
import { host, hostContext, hostRead } from "../helpers/host.js";
import { randomSession } from "../synth/random-tree.js";

const scratch = mkdtempSync(join(tmpdir(), "ck-conformance-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);

describe("random trees: the kit's context for every leaf equals the host's buildSessionContext", () => {
  it.each(SEEDS)("seed %i", (seed) => {
    const text = randomSession(seed, 30 + (seed % 50)).toJsonl();
    const { tree, diagnostics } = loadSessionText(`random-${seed}`, text);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const { entries } = hostRead(text);
    for (const leaf of [...tree.leaves(), undefined]) {
      const ours = buildHostContext(tree, leaf);
      const theirs = hostContext(entries, leaf);
      expect(ours.messages).toEqual(theirs.messages);
      expect(ours.thinkingLevel).toBe(theirs.thinkingLevel);
      expect(ours.model).toEqual(theirs.model);
    }
  });
});

describe("random trees: leaves and the active leaf equal the host's SessionManager (opened on a scratch copy)", () => {
  it.each(SEEDS.filter((s) => s % 6 === 0))("seed %i", (seed) => {
    const original = join(scratch, `orig-${seed}.jsonl`);
    writeFileSync(original, randomSession(seed, 40).toJsonl());
    const copy = join(scratch, `copy-${seed}.jsonl`);
    copyFileSync(original, copy);
    const sm = host.SessionManager.open(copy, scratch);
    const { tree } = loadSessionText(original, randomSession(seed, 40).toJsonl());
    expect(tree.activeLeafId).toBe(sm.getLeafId());
    const hostLeaves: string[] = [];
    const stack = [...sm.getTree()];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.children.length === 0) hostLeaves.push(node.entry.id);
      stack.push(...node.children);
    }
    expect([...tree.leaves()].sort()).toEqual(hostLeaves.sort());
    for (const id of tree.labels.keys()) expect(tree.labels.get(id)).toBe(sm.getLabel(id));
  });
});
