import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { indexWhole } from "../../src/fleet/index-file.js";
import { type Links, type LinkTuple, type PackedLinks, packLinks, unpackLinks } from "../../src/fleet/memo-links.js";

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
      const memo = indexWhole(join(SHARED, name), name, false).memo as Uint8Array;
      const packed = JSON.parse(Buffer.from(memo).toString("utf8")).links as PackedLinks;
      const links = unpackLinks(packed);
      if (links.size < 50) continue;
      checked++;
      expect(packLinks(links)).toEqual(packed);
      for (const [, [parent, depth]] of links) {
        if (parent !== null) expect(depth).toBe((links.get(parent) as LinkTuple)[1] + 1);
      }
      const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
      expect(bytes(packed)).toBeLessThan(0.6 * bytes(Object.fromEntries(links)));
    }
    expect(checked).toBeGreaterThan(5);
  });
});
