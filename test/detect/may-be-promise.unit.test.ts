import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyReply, EN_PROMISE_LEADS, mayBePromise } from "../../src/detect/reply-classifier.js";
import { STALL_CASES } from "../eval/stall-cases.js";

const WORDS = ["check", "the", "file", "errors", "now", "Checking", "build", "output", "done", "I", "will", "review"];
const PIECES = [...WORDS, ...EN_PROMISE_LEADS, ".", ". ", "!", "?", "\n", " ", ":", "- ", "’", "让我", "检查"];

describe("the cheap promise pre-test never hides a promise", () => {
  it("agrees with the classifier on every reply of the evaluation set", () => {
    const texts = STALL_CASES.flatMap((c) => c.events.flatMap((e) => (e.type === "assistant" ? [e.text] : [])));
    expect(texts.length).toBeGreaterThan(100);
    for (const text of texts) {
      if (classifyReply(text).kind === "promise") expect(mayBePromise(text)).toBe(true);
    }
  });

  it("holds on generated replies mixing leads, verbs, sentence ends and non-ASCII", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }), (pieces) => {
        const text = pieces.join(" ");
        return mayBePromise(text) || classifyReply(text).kind !== "promise";
      }),
      { numRuns: 3000, seed: 7 },
    );
  });
});
