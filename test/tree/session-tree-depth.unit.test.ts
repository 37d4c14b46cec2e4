import { describe, expect, it } from "vitest";
import { loadSessionText } from "../../src/session.js";
import { Random } from "../synth/random.js";
import { randomSession } from "../synth/random-tree.js";

describe("a tree's depths and cycle cuts", () => {
  it.each([11, 12, 13, 14])(
    "seed %i: every entry's depth, asked in random order, is its path's length less one",
    (seed) => {
      const { tree } = loadSessionText("r.jsonl", randomSession(seed, 400).toJsonl());
      const ids = [...tree.byId.keys()];
      const rnd = new Random(seed);
      for (let i = ids.length - 1; i > 0; i--) {
        const j = rnd.int(i + 1);
        [ids[i], ids[j]] = [ids[j] as string, ids[i] as string];
      }
      for (const id of ids) expect(tree.depth(id)).toBe(tree.pathTo(id).length - 1);
      for (const id of ids) expect(tree.depth(id)).toBe(tree.pathTo(id).length - 1);
    },
  );

  it("cuts a loop of parent links however the file orders it, and reads an in-order file without cuts", () => {
    const lines = randomSession(5, 30).toJsonl().trimEnd().split("\n");
    expect(loadSessionText("a.jsonl", `${lines.join("\n")}\n`).tree.diagnostics).toEqual([]);
    const a = JSON.parse(lines[3] as string) as { id: string; parentId: string | null };
    const b = JSON.parse(lines[6] as string) as { id: string; parentId: string | null };
    a.parentId = b.id;
    const looped = [...lines];
    looped[3] = JSON.stringify(a);
    const codes = loadSessionText("b.jsonl", `${looped.join("\n")}\n`).tree.diagnostics.map((d) => d.code);
    expect(codes).toContain("E_CYCLE");
  });
});
