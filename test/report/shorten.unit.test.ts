import { describe, expect, it } from "vitest";
import { shorten } from "../../src/report/entry-kinds.js";
import { Random } from "../synth/random.js";

/** The reference the scanning version must equal. */
function reference(text: string, max: number): string {
  const flat = text
    .slice(0, max * 4)
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const SPACES = [" ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u1680", "\u2000", "\u200a", "\u2028", "\u2029"];
const OTHERS = ["\u202f", "\u205f", "\u3000", "\ufeff", "\u200b", "\u0085", "\u180e", "a", "é", "中", "🙂", "\ud800"];

describe("shorten", () => {
  it("equals the regular-expression version on random texts (every kind of space, long runs, surrogates)", () => {
    const rnd = new Random(5);
    for (let i = 0; i < 20_000; i++) {
      const parts = Array.from({ length: rnd.int(80) }, () =>
        rnd.chance(0.4) ? rnd.pick(SPACES) : rnd.chance(0.1) ? "x".repeat(rnd.int(120)) : rnd.pick(OTHERS),
      );
      const text = parts.join("");
      const max = rnd.pick([100, 20, 5, 1]);
      expect(shorten(text, max)).toBe(reference(text, max));
    }
  });
});
