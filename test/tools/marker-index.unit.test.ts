import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPolicy } from "../../src/policy/index.js";
import { MarkerIndex } from "../../src/tools/marker-index.js";
import { Random } from "../synth/random.js";

const SKIP = [".git", "node_modules"];
/** Short enough for a test, far longer than any file-system clock tick. */
const SETTLE_MS = 40;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The plain answer: walk every real directory (not skipped by name), stop at one the policy's probe excludes. */
function reference(root: string, start: string): string[] {
  const policy = createPolicy({ root, protectedDirs: [] });
  const found: string[] = [];
  const walk = (dir: string, rel: string) => {
    if (policy.markerIn(dir) !== "none") {
      found.push(rel);
      return;
    }
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !SKIP.includes(entry.name)) {
        walk(join(dir, entry.name), rel === "" ? entry.name : `${rel}/${entry.name}`);
      }
    }
  };
  walk(start, "");
  return found.sort();
}

describe("the marker index", () => {
  let base: string;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-markers-")));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("given random trees changed between searches, then it answers as a fresh walk does, listing only what moved", async () => {
    let markersSeen = 0;
    for (const seed of [1, 2, 3]) {
      const random = new Random(seed);
      const root = join(base, `tree-${seed}`);
      const dirs = [root];
      mkdirSync(root);
      const names = ["a", "b", "c", "lib", ".hidden", "node_modules", ".git", "x y"];
      const addDir = () => {
        const dir = join(random.pick(dirs), `${random.pick(names)}${random.int(4)}`);
        mkdirSync(dir, { recursive: true });
        if (!dirs.includes(dir)) dirs.push(dir);
      };
      const addMarker = () => {
        const dir = random.pick(dirs);
        const kind = random.int(4);
        const marker = join(dir, ".context-exclude");
        mkdirSync(dir, { recursive: true });
        rmSync(marker, { recursive: true, force: true });
        if (kind === 0) mkdirSync(marker);
        else if (kind === 1) symlinkSync("nowhere", marker);
        else writeFileSync(marker, "");
      };
      for (let i = 0; i < 40; i++) addDir();
      for (let i = 0; i < 4; i++) addMarker();
      // A link to a folder is never followed, even to one full of markers.
      symlinkSync(random.pick(dirs), join(root, "link"));
      for (let i = 0; i < 10; i++) writeFileSync(join(random.pick(dirs), `f${i}.txt`), "text");

      const index = new MarkerIndex(false, SKIP, SETTLE_MS);
      const start = join(root, "a0");
      mkdirSync(start, { recursive: true });
      expect(index.excludedBelow(root)).toEqual(reference(root, root));
      expect(index.excludedBelow(start)).toEqual(reference(root, start));
      for (let round = 0; round < 6; round++) {
        await sleep(SETTLE_MS * 2);
        // What changed within the settle time of its listing is listed again once; then nothing is.
        expect(index.excludedBelow(root)).toEqual(reference(root, root));
        const before = index.listings;
        const answer = index.excludedBelow(root);
        expect(answer).toEqual(reference(root, root));
        expect(index.listings).toBe(before);
        markersSeen += answer?.length ?? 0;
        const change = random.int(5);
        if (change === 0) addMarker();
        else if (change === 1) rmSync(join(random.pick(dirs), ".context-exclude"), { recursive: true, force: true });
        else if (change === 2) addDir();
        else if (change === 3) {
          const from = random.pick(dirs.slice(1));
          const to = join(random.pick(dirs), `moved${round}`);
          if (!to.startsWith(`${from}/`) && to !== from) {
            try {
              renameSync(from, to);
            } catch {
              // a parent already moved away
            }
          }
        } else {
          const dir = random.pick(dirs.slice(1));
          rmSync(dir, { recursive: true, force: true });
        }
        // Changed right now, within the settle time: what moved is listed again, every time.
        expect(index.excludedBelow(root)).toEqual(reference(root, root));
        expect(index.excludedBelow(root)).toEqual(reference(root, root));
        expect(new MarkerIndex(false, SKIP).excludedBelow(root)).toEqual(reference(root, root));
      }
    }
    expect(markersSeen).toBeGreaterThan(10);
  });

  it("given a listing made within the settle time of its folder's last change, then it is listed again", async () => {
    mkdirSync(join(base, "a", "b"), { recursive: true });
    // A clock that reads each folder just as it changed: a change in the same tick would leave no trace.
    let now = Date.now();
    const index = new MarkerIndex(false, SKIP, 1000, () => now);
    expect(index.excludedBelow(base)).toEqual([]);
    const first = index.listings;
    expect(first).toBe(3);
    index.excludedBelow(base);
    expect(index.listings).toBe(first * 2);
    now += 5000;
    index.excludedBelow(base);
    index.excludedBelow(base);
    expect(index.listings).toBe(first * 3);
  });

  it("given a prefill ahead of the first search, then the search lists nothing more; a bounded prefill stops", async () => {
    for (const dir of ["a/b/c", "a/d", "e/.context-exclude", "f/g", "node_modules/h"]) {
      mkdirSync(join(base, dir), { recursive: true });
    }
    writeFileSync(join(base, "f", ".context-exclude"), "");
    await sleep(SETTLE_MS * 2);
    const index = new MarkerIndex(false, SKIP, SETTLE_MS);
    await index.prefill(base);
    // base, a, a/b, a/b/c, a/d, e, f: not below a marker's folder, not node_modules.
    expect(index.listings).toBe(7);
    expect(index.excludedBelow(base)).toEqual(["e", "f"]);
    expect(index.listings).toBe(7);
    const bounded = new MarkerIndex(false, SKIP, SETTLE_MS);
    await bounded.prefill(base, 2, 0);
    expect(bounded.listings).toBe(2);
    expect(bounded.excludedBelow(base)).toEqual(["e", "f"]);
    expect(bounded.listings).toBe(7);
  });

  it("given a folder replaced by another of the same name, then the new one is read", async () => {
    mkdirSync(join(base, "a", "b"), { recursive: true });
    const index = new MarkerIndex(false, SKIP, SETTLE_MS);
    expect(index.excludedBelow(base)).toEqual([]);
    await sleep(SETTLE_MS * 2);
    mkdirSync(join(base, "other", "b"), { recursive: true });
    writeFileSync(join(base, "other", "b", ".context-exclude"), "");
    await sleep(SETTLE_MS * 2);
    rmSync(join(base, "a"), { recursive: true });
    renameSync(join(base, "other"), join(base, "a"));
    expect(index.excludedBelow(base)).toEqual(["a/b"]);
  });

  it("given a start that is gone, then nothing is excluded; given one that cannot be looked up, no answer", () => {
    mkdirSync(join(base, "locked"));
    const index = new MarkerIndex(false, SKIP);
    expect(index.excludedBelow(join(base, "missing"))).toEqual([]);
    expect(index.excludedBelow(join(base, "locked", "file"))).toEqual([]);
    writeFileSync(join(base, "file"), "");
    expect(index.excludedBelow(join(base, "file", "below"))).toBeNull();
  });

  it("given case folding, then marker and skipped names match in any case", () => {
    mkdirSync(join(base, "A"), { recursive: true });
    writeFileSync(join(base, "A", ".Context-Exclude"), "");
    mkdirSync(join(base, "Node_Modules", "x"), { recursive: true });
    writeFileSync(join(base, "Node_Modules", "x", ".context-exclude"), "");
    expect(new MarkerIndex(true, SKIP).excludedBelow(base)).toEqual(["A"]);
    expect(new MarkerIndex(false, SKIP).excludedBelow(base)).toEqual(["Node_Modules/x"]);
  });
});
