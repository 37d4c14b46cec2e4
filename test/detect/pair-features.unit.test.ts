import { describe, expect, it } from "vitest";
import { PAIR_WORD_BITS, pairSide, pairWordSlots } from "../../src/detect/pair-features.js";
import { hashSlot } from "../../src/detect/reply-features.js";
import { samePromiseProbability } from "../../src/detect/stall-model.js";

const sorted = (slots: number[]) => [...slots].sort((x, y) => x - y);

describe("the pair model's words", () => {
  const read = "Let me read `src/db/pool.ts` first.";
  const edit = "Now I'll edit `src/db/pool.ts` to raise the limit.";

  it("given two promises, then their word slots and their probability are the same whichever comes first", () => {
    expect(sorted(pairWordSlots(pairSide(read), pairSide(edit)))).toEqual(
      sorted(pairWordSlots(pairSide(edit), pairSide(read))),
    );
    expect(samePromiseProbability(read, edit)).toBe(samePromiseProbability(edit, read));
  });

  it("given the same file, then another action on it reads as another step more than the same action restated", () => {
    expect(samePromiseProbability(read, "Reading `src/db/pool.ts` now.")).toBeGreaterThan(
      samePromiseProbability(read, edit),
    );
  });

  it("given a promise and itself, then every word is one both hold", () => {
    const side = pairSide(edit);
    const both = [
      ...[...side.closingWords].map((w) => hashSlot("s", w, PAIR_WORD_BITS)),
      ...[...side.leads].map((w) => hashSlot("t", w, PAIR_WORD_BITS)),
    ];
    expect(sorted(pairWordSlots(side, side))).toEqual(sorted(both));
  });

  it("given promises with no word in common, then every word is one only one of them holds", () => {
    const a = pairSide("Checking the logs.");
    const b = pairSide("Voy a reiniciar el servicio.");
    const only = [
      ...[...a.closingWords, ...b.closingWords].map((w) => hashSlot("d", w, PAIR_WORD_BITS)),
      ...[...a.leads, ...b.leads].map((w) => hashSlot("e", w, PAIR_WORD_BITS)),
    ];
    expect(sorted(pairWordSlots(a, b))).toEqual(sorted(only));
    for (const slot of pairWordSlots(a, b)) expect(slot).toBeLessThan(1 << PAIR_WORD_BITS);
  });

  it("given Chinese, Japanese or Korean text, then its pairs of characters are words", () => {
    expect([...pairSide("我先看一下配置。").closingWords]).toEqual(expect.arrayContaining(["配置", "先看"]));
    expect([...pairSide("設定ファイルを確認します。").closingWords]).toEqual(expect.arrayContaining(["設定", "確認"]));
    expect([...pairSide("설정 파일을 확인하겠습니다.").closingWords]).toEqual(expect.arrayContaining(["확인", "설정"]));
  });

  it("given sentences that begin a step of a plan, then the word each closing sentence begins with is read apart", () => {
    expect(pairSide("Primeiro instalo o `@sentry/react-native`.").leads).toEqual(new Set(["primeiro"]));
    expect(pairSide("Six and a half minutes. Then I'll open `gradle.properties`.").leads).toEqual(
      new Set(["six", "then"]),
    );
    expect(pairSide("**Next:** run the tests again.").leads).toEqual(new Set(["next"]));
    expect(pairSide("然后我检查一下配置。").leads).toEqual(new Set(["然后"]));
    const first = pairSide("First I'll check the pool size.");
    const then = pairSide("Then I'll check the timeout.");
    const slots = pairWordSlots(first, then);
    expect(slots).toEqual(
      expect.arrayContaining([hashSlot("e", "first", PAIR_WORD_BITS), hashSlot("e", "then", PAIR_WORD_BITS)]),
    );
    expect(pairWordSlots(then, pairSide("Then I'll check the pool."))).toContain(hashSlot("t", "then", PAIR_WORD_BITS));
  });

  it("given one word, then it has a slot of its own per side of the comparison", () => {
    expect(hashSlot("s", "restart", PAIR_WORD_BITS)).not.toBe(hashSlot("d", "restart", PAIR_WORD_BITS));
  });
});
