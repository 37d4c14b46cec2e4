import { describe, expect, it } from "vitest";
import { isSimilarReply, replySimilarity, SIMILARITY_THRESHOLD } from "../../src/detect/index.js";

describe("replySimilarity", () => {
  it("given identical replies, then the score is 1", () => {
    expect(replySimilarity("Let me check the file.", "Let me check the file.")).toBe(1);
    expect(replySimilarity("我来检查一下编译错误。", "我来检查一下编译错误。")).toBe(1);
  });

  it("given any two replies, then the score is in [0, 1] and symmetric", () => {
    const pairs = [
      ["Let me check the compiler errors.", "I'll run the tests."],
      ["我来检查一下编译错误。", "Let me check 编译错误 again."],
      ["", "Let me check."],
      ["...", "..."],
    ] as const;
    for (const [a, b] of pairs) {
      const score = replySimilarity(a, b);
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
      expect(replySimilarity(b, a)).toBe(score);
    }
  });

  it("given English paraphrases of one promise, then they are similar", () => {
    const a = "Let me check the old compiler errors first.";
    const b = "I'll look at the compiler errors again.";
    expect(replySimilarity(a, b)).toBeGreaterThanOrEqual(SIMILARITY_THRESHOLD);
  });

  it("given English promises about different things, then they are not similar (openers do not count)", () => {
    expect(replySimilarity("Let me check the file.", "Let me run the tests.")).toBe(0);
    expect(isSimilarReply("I'll review the build output.", "I'll update the README.")).toBe(false);
  });

  it("given Chinese paraphrases, then bigrams find them similar", () => {
    expect(isSimilarReply("我来检查一下编译错误。", "让我先看一下编译错误。")).toBe(true);
    expect(isSimilarReply("我来检查一下编译错误。", "我来运行一下测试。")).toBe(false);
  });

  it("given mixed text, then Latin words and CJK bigrams both count", () => {
    expect(isSimilarReply("我来 check 一下 compiler errors。", "让我 check 一下 compiler errors。")).toBe(true);
    expect(isSimilarReply("Let me 检查 the schema 文件.", "Let me 检查 the schema 文件 again.")).toBe(true);
    expect(isSimilarReply("我来 check 一下 compiler errors。", "我来 review 一下 README 文档。")).toBe(false);
  });

  it("given replies with no content words, then only the same punctuation-free text is similar", () => {
    expect(replySimilarity("OK.", "ok")).toBe(1);
    expect(replySimilarity("OK.", "Sure.")).toBe(0);
    expect(replySimilarity("", "The file.")).toBe(0);
  });
});

describe("replySimilarity: word normalisation", () => {
  it("given plural, gerund and past forms, then they match their base word", () => {
    expect(replySimilarity("Let me check the errors.", "Checking the error.")).toBe(1);
    expect(replySimilarity("I'll fix the imports.", "Fixed the import.")).toBe(1);
  });

  it("given inspect-verbs (check, look, review, inspect), then they count as one word", () => {
    expect(replySimilarity("Let me check the migration.", "I'll review the migration.")).toBe(1);
    expect(replySimilarity("Let me check the migration.", "I'll rewrite the migration.")).toBe(0.5);
  });

  it("given the same object but a different non-inspect verb and object, then they are below the line", () => {
    expect(replySimilarity("Let me check the file.", "I'll check the compiler errors.")).toBeCloseTo(0.4);
  });
});
