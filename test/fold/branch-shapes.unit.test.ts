import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { branchShapesOfLinks } from "../../src/fold/branch-shapes.js";
import { ReadingFold } from "../../src/fold/reading-fold.js";
import { loadSession } from "../../src/session.js";
import { TreeLinks } from "../../src/tree/tree-links.js";
import { Random } from "../synth/random.js";
import { randomSession } from "../synth/random-tree.js";

const scratch = mkdtempSync(join(tmpdir(), "ck-branch-shapes-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * The reference, by definition and without the tree's shape code: the entries no other entry names as its parent
 * (file order), each path's length, and the deepest entry of a leaf's path on the active leaf's path.
 */
function fromTree(file: string) {
  const { tree } = loadSession(file);
  const active = tree.activeLeafId;
  const ids = [...tree.byId.keys()];
  const parents = new Set(ids.map((id) => tree.parentOf(id)));
  const onActive = new Set(active === null ? [] : tree.pathTo(active).map((e) => e.id));
  return {
    activeLeafId: active,
    branches: ids
      .filter((id) => !parents.has(id))
      .map((leafId) => {
        const path = tree.pathTo(leafId);
        const shared = path.filter((e) => onActive.has(e.id));
        return {
          leafId,
          depth: path.length - 1,
          forkFromId: leafId === active || active === null ? null : (shared[shared.length - 1]?.id ?? null),
        };
      }),
  };
}

function fromLinks(file: string) {
  const fold = new ReadingFold(file);
  loadSession(file, fold.readOptions());
  expect(fold.matchesItself()).toBe(true);
  return branchShapesOfLinks(fold.treeLinks());
}

/** What the loaded tree itself answers (the shape code the offline commands use). */
function fromSessionTree(file: string) {
  const { tree } = loadSession(file);
  const active = tree.activeLeafId;
  return {
    activeLeafId: active,
    branches: tree.leaves().map((leafId) => ({
      leafId,
      depth: tree.depth(leafId),
      forkFromId: leafId === active || active === null ? null : tree.commonAncestor(leafId, active),
    })),
  };
}

describe("the branches found from a reading fold's parent links, and by the loaded tree, equal their definition", () => {
  it.each(Array.from({ length: 30 }, (_, i) => 4100 + i))("random session, seed %i", (seed) => {
    const file = join(scratch, `random-${seed}.jsonl`);
    writeFileSync(file, randomSession(seed, seed % 5 === 0 ? 800 : 120).toJsonl());
    expect(fromLinks(file)).toEqual(fromTree(file));
    expect(fromSessionTree(file)).toEqual(fromTree(file));
  });

  it.each(Array.from({ length: 20 }, (_, i) => 4200 + i))("random links with roots and orphans, seed %i", (seed) => {
    // Bare records: parents anywhere earlier, missing, null or the entry itself; the tree's rules decide each.
    const rnd = new Random(seed);
    const ids: string[] = [];
    const lines = [
      JSON.stringify({ type: "session", version: 3, id: `s${seed}`, timestamp: "2026-01-01T00:00:00Z", cwd: "/p" }),
    ];
    const count = 1 + rnd.int(300);
    for (let i = 0; i < count; i++) {
      const id = `e${seed}-${i}`;
      const roll = rnd.int(100);
      const parentId =
        roll < 60 && ids.length > 0
          ? (ids[ids.length - 1] as string)
          : roll < 85 && ids.length > 0
            ? rnd.pick(ids)
            : roll < 90
              ? null
              : roll < 95
                ? `missing-${i}`
                : id;
      ids.push(id);
      lines.push(JSON.stringify({ type: "custom", customType: "x", id, parentId, timestamp: "2026-01-01T00:00:01Z" }));
    }
    const file = join(scratch, `links-${seed}.jsonl`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    expect(fromLinks(file)).toEqual(fromTree(file));
  });

  it("an empty tree has no branches", () => {
    expect(branchShapesOfLinks(new TreeLinks())).toEqual({ activeLeafId: null, branches: [] });
  });
});
