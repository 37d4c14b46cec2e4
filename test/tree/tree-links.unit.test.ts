import { describe, expect, it } from "vitest";
import { TreeLinks } from "../../src/tree/tree-links.js";
import { Random } from "../synth/random.js";

/** A forest of `n` entries with branches, listed in file order or, when `shuffled`, with children before parents. */
function randomLinks(seed: number, n: number, shuffled: boolean): Map<string, string | null> {
  const rnd = new Random(seed);
  const made: [string, string | null][] = [];
  for (let i = 0; i < n; i++) {
    const id = `e${i}`;
    const roll = rnd.int(100);
    const parent = i === 0 || roll < 3 ? null : roll < 80 ? `e${i - 1}` : `e${rnd.int(i)}`;
    made.push([id, parent]);
  }
  if (shuffled) {
    for (let i = made.length - 1; i > 0; i--) {
      const j = rnd.int(i + 1);
      [made[i], made[j]] = [made[j] as [string, string | null], made[i] as [string, string | null]];
    }
  }
  return new Map(made);
}

/** The shape by definition, from the links alone. */
function reference(parents: Map<string, string | null>) {
  const ids = [...parents.keys()];
  const children = (id: string) => ids.filter((c) => parents.get(c) === id);
  const path = (id: string) => {
    const out: string[] = [];
    for (let c: string | null = id; c !== null; c = parents.get(c) ?? null) out.push(c);
    return out;
  };
  const firstChildPlace = (id: string) => ids.findIndex((c) => parents.get(c) === id);
  return {
    leaves: ids.filter((id) => children(id).length === 0),
    branchPoints: ids.filter((id) => children(id).length > 1).sort((a, b) => firstChildPlace(a) - firstChildPlace(b)),
    depth: (id: string) => path(id).length - 1,
    children,
    meet: (a: string, b: string) => {
      const onB = new Set(path(b));
      return path(a).find((id) => onB.has(id)) ?? null;
    },
  };
}

describe("TreeLinks", () => {
  it.each([
    [1, false],
    [2, false],
    [3, true],
    [4, true],
  ])(
    "seed %i (children before parents: %s): leaves, forks, depths, children and meeting points as defined",
    (seed, shuffled) => {
      const parents = randomLinks(seed, 300, shuffled);
      const links = new TreeLinks(parents);
      const ref = reference(parents);
      expect(links.size).toBe(parents.size);
      expect(links.last).toBe([...parents.keys()].at(-1));
      expect(links.leaves()).toEqual(ref.leaves);
      expect(links.branchPoints()).toEqual(ref.branchPoints);
      expect([...links.forks()]).toEqual(ref.branchPoints);
      const rnd = new Random(seed);
      for (const id of parents.keys()) {
        expect(links.depth(id)).toBe(ref.depth(id));
        expect(links.childrenOf(id)).toEqual(ref.children(id));
        expect(links.parentOf(id)).toBe(parents.get(id));
      }
      const leaves = ref.leaves;
      for (let i = 0; i < 60; i++) {
        const a = leaves[rnd.int(leaves.length)] as string;
        const b = leaves[rnd.int(leaves.length)] as string;
        expect(links.commonAncestor(a, b)).toBe(ref.meet(a, b));
      }
    },
  );

  it("answers as entries are added: a shape asked for midway, then after more entries", () => {
    const links = new TreeLinks();
    expect(links.add("a", null)).toBe(true);
    expect(links.add("b", "a")).toBe(true);
    expect(links.leaves()).toEqual(["b"]);
    expect(links.depth("b")).toBe(1);
    expect(links.add("c", "a")).toBe(true);
    expect(links.add("d", "c")).toBe(true);
    expect(links.leaves()).toEqual(["b", "d"]);
    expect(links.branchPoints()).toEqual(["a"]);
    expect(links.childrenOf("a")).toEqual(["b", "c"]);
    expect(links.depth("d")).toBe(2);
    expect(links.commonAncestor("b", "d")).toBe("a");
  });

  it("refuses an id taken before, and leaves its first links as they were", () => {
    const links = new TreeLinks();
    links.add("a", null);
    links.add("b", "a");
    expect(links.add("b", null)).toBe(false);
    expect(links.size).toBe(2);
    expect(links.parentOf("b")).toBe("a");
  });

  it("links a parent added after its children once the shape is asked for, and says an unknown id is nowhere", () => {
    const links = new TreeLinks(
      new Map([
        ["c", "b"],
        ["d", "c"],
        ["b", "a"],
        ["a", null],
      ]),
    );
    expect(links.depth("d")).toBe(3);
    expect(links.leaves()).toEqual(["d"]);
    expect(links.parentOf("b")).toBe("a");
    expect(links.parentOf("zz")).toBeNull();
    expect(links.commonAncestor("zz", "d")).toBeNull();
  });

  it("numbered in advance: keeps the places given, links a parent numbered after its child, refuses a repeat", () => {
    const places = new Map([
      ["c", 0],
      ["a", 1],
      ["b", 2],
    ]);
    const links = TreeLinks.numbered(places);
    expect(links.add("c", "b")).toBe(true);
    expect(links.has("a")).toBe(false);
    expect(links.add("a", null)).toBe(true);
    expect(links.add("b", "a")).toBe(true);
    expect(links.add("c", null)).toBe(false);
    expect(links.depth("c")).toBe(2);
    expect(links.leaves()).toEqual(["c"]);
    expect(links.places().indexOf).toBe(places);
    expect(links.places().parents).toEqual([2, -1, 1]);
    expect(links.places().parentsFirst).toBe(false);
  });

  it("reads a link to an id never added as a root", () => {
    const links = new TreeLinks(new Map([["x", "missing"]]));
    expect(links.depth("x")).toBe(0);
    expect(links.parentOf("x")).toBeNull();
    expect(links.leaves()).toEqual(["x"]);
  });
});
