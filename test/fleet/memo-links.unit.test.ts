import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { indexWhole } from "../../src/fleet/index-file.js";
import { packMemo } from "../../src/fleet/memo-bytes.js";
import { type Links, type LinkTuple, packLinks, unpackLinks } from "../../src/fleet/memo-links.js";

const SHARED = join(import.meta.dirname, "../../../shared/pi-sessions");

describe("the memo's links", () => {
  it("come back as they were packed: branches, roots, a parent written after its child, jumps in depth", () => {
    const links: Links = new Map<string, LinkTuple>([
      ["a", [null, 0, 0]],
      ["b", ["a", 1, 1]],
      ["c", ["b", 2, 2]],
      ["d", ["a", 1, 1]],
      ["late-child", ["late-parent", 7, 3]],
      ["late-parent", [null, 6, 2]],
      ["12345678", ["c", 3, 2]],
      ["e", ["12345678", 4, 3]],
    ]);
    const back = unpackLinks(packLinks(links));
    expect([...back]).toEqual([...links]);
  });

  it("of real sessions are under 60% of the bytes of one object keyed by id, and pack again to the same bytes", (ctx) => {
    if (!existsSync(SHARED)) {
      if (process.env.CI) throw new Error(`${SHARED} is missing`);
      ctx.skip();
    }
    let checked = 0;
    for (const name of readdirSync(SHARED).filter((n) => n.endsWith(".jsonl"))) {
      const memo = indexWhole(join(SHARED, name), name, false).rows._memo[0];
      const packed = memo?.[8] as Uint8Array;
      const links = unpackLinks(packed);
      if (links.size < 50) continue;
      checked++;
      expect(Buffer.from(packLinks(links)).equals(Buffer.from(packed))).toBe(true);
      for (const [, [parent, depth]] of links) {
        if (parent !== null) expect(depth).toBe((links.get(parent) as LinkTuple)[1] + 1);
      }
      expect(packed.byteLength).toBeLessThan(0.6 * packMemo(Object.fromEntries(links)).byteLength);
    }
    expect(checked).toBeGreaterThan(5);
  });

  it("written by an earlier version as one object keyed by id are still read", () => {
    const old: Record<string, LinkTuple> = { a: [null, 0, 0], b: ["a", 1, 1], v: ["b", 2, 1] };
    expect([...unpackLinks(packMemo(old))]).toEqual(Object.entries(old));
  });
});
