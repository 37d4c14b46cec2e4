import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import stableStringify from "fast-json-stable-stringify";
import { afterAll, describe, expect, it } from "vitest";
import { foldPath } from "../../src/fold/branch-fold.js";
import { kitReducer } from "../../src/fold/kit-reducer.js";
import { ReadingFold } from "../../src/fold/reading-fold.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { loadSession } from "../../src/session.js";
import { randomSession } from "../synth/random-tree.js";
import { SessionBuilder } from "../synth/session-builder.js";

const scratch = mkdtempSync(join(tmpdir(), "ck-reading-fold-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  return file;
}

/** Every entry's state, folded while read, against the plain fold of its path in the fully loaded tree. */
function expectSameStates(file: string, order: "file" | "reverse"): void {
  const fold = new ReadingFold(file);
  const read = loadSession(file, fold.readOptions());
  expect(fold.matches(read.tree)).toBe(true);
  const { tree } = loadSession(file);
  const batch = foldTree(tree);
  const ids = [...tree.byId.keys()];
  for (const id of order === "file" ? ids : ids.reverse()) {
    const expected = stableStringify(foldPath(tree.pathTo(id), kitReducer));
    expect(stableStringify(fold.stateAt(id))).toBe(expected);
    expect(stableStringify(batch.stateAt(id))).toBe(expected);
  }
  expect(fold.stateAt(null)).toBe(kitReducer.initialState());
}

describe("the fold made while a file is read equals the fold of the loaded tree", () => {
  it.each(Array.from({ length: 40 }, (_, i) => 2000 + i))("seed %i: every entry's state, in either order", (seed) => {
    const b = randomSession(seed, seed % 4 === 0 ? 700 : 150);
    expectSameStates(write(`random-${seed}.jsonl`, b.toJsonl()), seed % 2 === 0 ? "file" : "reverse");
  });

  it("says it does not match when an id repeats or a parent comes after its child", () => {
    const b = randomSession(3, 40);
    const lines = b.toJsonl().trimEnd().split("\n");
    const duplicate = write("duplicate.jsonl", `${[...lines, lines[5]].join("\n")}\n`);
    const fold = new ReadingFold(duplicate);
    expect(fold.matches(loadSession(duplicate, fold.readOptions()).tree)).toBe(false);

    const swapped = [...lines];
    [swapped[3], swapped[4]] = [swapped[4] as string, swapped[3] as string];
    const forward = write("forward.jsonl", `${swapped.join("\n")}\n`);
    const second = new ReadingFold(forward);
    expect(second.matches(loadSession(forward, second.readOptions()).tree)).toBe(false);
  });

  it("takes a missing parent for a root, as the tree does", () => {
    const b = new SessionBuilder();
    b.user("first");
    b.assistant("reply");
    const lines = b.toJsonl().trimEnd().split("\n");
    const orphan = JSON.parse(lines[2] as string) as Record<string, unknown>;
    orphan.parentId = "not-in-file";
    const file = write("orphan.jsonl", `${[lines[0], lines[1], JSON.stringify(orphan)].join("\n")}\n`);
    expectSameStates(file, "file");
  });
});
