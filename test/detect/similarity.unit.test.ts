import { describe, expect, it } from "vitest";
import { isSimilarReply, replySimilarity, SIMILARITY_THRESHOLD } from "../../src/detect/index.js";
import { nearIdentical } from "../../src/detect/similarity.js";

describe("replySimilarity: the same action on the same object", () => {
  it("given identical promises, then the score is 1", () => {
    expect(replySimilarity("Let me check the file.", "Let me check the file.")).toBe(1);
    expect(replySimilarity("我来检查一下编译错误。", "我来检查一下编译错误。")).toBe(1);
  });

  it("given any two replies, then the score is in [0, 1] and symmetric", () => {
    const pairs = [
      ["Let me check the compiler errors.", "I'll run the tests."],
      ["我来检查一下编译错误。", "Let me check 编译错误 again."],
      ["", "Let me check."],
      ["...", "..."],
      ["I'll move the helper into dates.ts.", "Let me relocate that helper into dates.ts."],
    ] as const;
    for (const [a, b] of pairs) {
      const score = replySimilarity(a, b);
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
      expect(replySimilarity(b, a)).toBeCloseTo(score, 10);
    }
  });

  it("given paraphrases with different words, then they are similar", () => {
    expect(
      isSimilarReply("Let me check the old compiler errors first.", "I'll look at the compiler errors again."),
    ).toBe(true);
    expect(
      isSimilarReply("Let me rerun the build with verbose logging.", "I'll rebuild with verbose logging on."),
    ).toBe(true);
    expect(isSimilarReply("Let me trace through refresh().", "I'll step through the refresh path.")).toBe(true);
  });

  it("given Chinese synonyms, Traditional script and a language switch, then they are similar", () => {
    expect(isSimilarReply("我来检查一下编译错误。", "让我先看一下编译错误。")).toBe(true);
    expect(isSimilarReply("我来检查一下编译错误。", "讓我再檢查一次編譯錯誤")).toBe(true);
    expect(isSimilarReply("Let me check the compiler errors.", "我看看编译错误。")).toBe(true);
  });

  it("given a different action or a different object, then they are not similar", () => {
    expect(replySimilarity("Let me check the file.", "Let me run the tests.")).toBe(0);
    expect(isSimilarReply("I'll review the build output.", "I'll update the README.")).toBe(false);
    expect(isSimilarReply("我来检查一下编译错误。", "我来运行一下测试。")).toBe(false);
    expect(isSimilarReply("Let me update schedule.ts.", "Let me remove moment from package.json.")).toBe(false);
  });

  it("given a promise without an object, then it stays with a run of the same action", () => {
    expect(replySimilarity("Still checking.", "Let me check the compiler errors.")).toBeGreaterThanOrEqual(
      SIMILARITY_THRESHOLD,
    );
  });

  it("given non-promises, then they are not similar to promises", () => {
    expect(replySimilarity("The file has 3 errors.", "Let me check the file.")).toBe(0);
    expect(replySimilarity("The project has 11 objects.", "The project has 11 objects.")).toBe(0);
  });
});

describe("nearIdentical: the language-independent fallback", () => {
  it("given the same reply in any script, then it scores 1; different replies score lower", () => {
    expect(nearIdentical("빌드를 다시 돌려 보겠습니다.", "빌드를 다시 돌려 보겠습니다")).toBe(1);
    expect(nearIdentical("빌드를 다시 돌려 보겠습니다.", "테스트 결과를 보여 드리겠습니다.")).toBeLessThan(0.5);
    expect(nearIdentical("", "")).toBe(0);
  });
});
