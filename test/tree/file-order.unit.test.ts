import { describe, expect, it } from "vitest";
import { loadSessionText } from "../../src/session.js";
import type { SessionTree } from "../../src/tree/session-tree.js";
import { randomSession } from "../synth/random-tree.js";

/** What the order says of each entry, by id: its record, its parent's id and how many children it has. */
function byPlace(tree: SessionTree) {
  const { ids, entries, parents, children, indexOf } = tree.order;
  return ids.map((id, at) => {
    expect(indexOf.get(id)).toBe(at);
    const p = parents[at] as number;
    return { id, entry: entries[at], parent: p < 0 ? null : ids[p], children: children[at] };
  });
}

/** The same facts from the tree's own links. */
function fromLinks(tree: SessionTree) {
  return [...tree.byId.keys()].map((id) => ({
    id,
    entry: tree.get(id),
    parent: tree.parentOf(id),
    children: tree.childrenOf(id).length,
  }));
}

describe("a tree's entries by their place in file order", () => {
  it.each([21, 22, 23])("seed %i: places, parents and children agree with the tree's links", (seed) => {
    const { tree } = loadSessionText("r.jsonl", randomSession(seed, 300).toJsonl());
    expect(byPlace(tree)).toEqual(fromLinks(tree));
    expect(tree.order.parentsFirst).toBe(true);
  });

  it("a repeated id keeps its first place with its later record; orphans and cut cycles are roots; a later parent", () => {
    const lines = randomSession(7, 40).toJsonl().trimEnd().split("\n");
    const first = JSON.parse(lines[5] as string) as { id: string; parentId: string | null; extra?: string };
    const orphan = JSON.parse(lines[9] as string) as { id: string; parentId: string | null };
    const looped = JSON.parse(lines[12] as string) as { id: string; parentId: string | null };
    orphan.parentId = "not-in-the-file";
    looped.parentId = (JSON.parse(lines[20] as string) as { id: string }).id;
    lines[9] = JSON.stringify(orphan);
    lines[12] = JSON.stringify(looped);
    lines.push(JSON.stringify({ ...first, extra: "later" }));
    // A parent written after its child: a root at the end adopts the second entry.
    const adopted = JSON.parse(lines[2] as string) as { id: string; parentId: string | null };
    const late = { ...orphan, id: "late-root", parentId: null };
    adopted.parentId = late.id;
    lines[2] = JSON.stringify(adopted);
    lines.push(JSON.stringify(late));
    const { tree } = loadSessionText("d.jsonl", `${lines.join("\n")}\n`);
    const codes = tree.diagnostics.map((d) => d.code);
    expect(codes).toEqual(expect.arrayContaining(["E_DUPLICATE_ID", "E_MISSING_PARENT", "E_CYCLE"]));
    expect(byPlace(tree)).toEqual(fromLinks(tree));
    const at = tree.order.indexOf.get(first.id) as number;
    expect(at).toBe(4);
    expect((tree.order.entries[at] as unknown as { extra?: string }).extra).toBe("later");
    expect(tree.position(first.id)?.line).toBe(lines.length - 1);
    expect(tree.order.parents[tree.order.indexOf.get(adopted.id) as number]).toBe(tree.order.ids.length - 1);
    expect(tree.order.parents[tree.order.indexOf.get(orphan.id) as number]).toBe(-1);
    expect(tree.order.parentsFirst).toBe(false);
  });
});
