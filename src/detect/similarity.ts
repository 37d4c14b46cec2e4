import { CJK_RUN, normalize, words } from "./text.js";

/**
 * Two replies at or above this Dice score say the same thing. Stop words and promise openers are dropped and
 * inspect-verbs folded first, so the score compares what a promise is about: paraphrases of one promise ("Let me
 * check the compiler errors." / "I'll look at the compiler errors again.") score 0.75-1, promises about different
 * things ("check the file" / "run the tests") score 0, and "check the file" / "check the compiler errors" 0.4.
 * Half the content tokens in common is the line.
 */
export const SIMILARITY_THRESHOLD = 0.5;

export const EN_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the to of at in on for and or with from into by about as me i i'll i'm i'd ll m d s re ve let let's lets " +
    "us we we'll will shall would going gonna now first then again just quickly also still this that these those it " +
    "its it's is are be been my our your you some any all so ok okay sure please here there up out over before after"
  ).split(" "),
);
/** Verbs that all mean "look at it" in a promise, folded to one token so paraphrases of one promise match. */
export const EN_INSPECT_VERBS: ReadonlySet<string> = new Set(
  "check recheck double-check look review inspect examine see investigate".split(" "),
);
/** Chinese fillers cut out before bigrams, longest first: "我来检查一下编译错误" keeps "检查" and "编译错误". */
export const ZH_STOP_PHRASES: readonly string[] = [
  "让我们",
  "接下来",
  "让我",
  "我们",
  "我来",
  "我先",
  "我会",
  "我将",
  "我要",
  "我再",
  "我去",
  "一下",
  "首先",
  "现在",
  "然后",
  "好的",
  "这个",
  "那个",
  "的",
  "了",
  "吧",
  "呢",
  "啊",
  "我",
  "先",
  "再",
];

/** Dice coefficient over content tokens: Latin words, and character bigrams (a lone character) of CJK runs. */
export function replySimilarity(a: string, b: string): number {
  const left = contentTokens(a);
  const right = contentTokens(b);
  if (left.size === 0 || right.size === 0) {
    return left.size === right.size && squash(a) === squash(b) ? 1 : 0;
  }
  let shared = 0;
  for (const token of left) if (right.has(token)) shared++;
  return (2 * shared) / (left.size + right.size);
}

export function isSimilarReply(a: string, b: string): boolean {
  return replySimilarity(a, b) >= SIMILARITY_THRESHOLD;
}

export function contentTokens(text: string): Set<string> {
  const lower = normalize(text);
  const tokens = new Set<string>();
  for (const word of words(lower)) if (!EN_STOP_WORDS.has(word)) tokens.add(wordToken(word));
  for (const run of lower.match(CJK_RUN) ?? []) {
    let cut = run;
    for (const phrase of ZH_STOP_PHRASES) cut = cut.split(phrase).join(" ");
    for (const piece of cut.split(" ")) {
      const chars = [...piece];
      if (chars.length === 1) tokens.add(piece);
      for (let i = 0; i + 1 < chars.length; i++) tokens.add(`${chars[i]}${chars[i + 1]}`);
    }
  }
  return tokens;
}

/** A light stem ("errors", "checking", "fixed" -> "error", "check", "fix") and the inspect-verb fold. */
function wordToken(word: string): string {
  const stem = word.length > 4 && !word.endsWith("ss") ? word.replace(/(?:ing|ed|s)$/, "") : word;
  return EN_INSPECT_VERBS.has(stem) || EN_INSPECT_VERBS.has(word) ? "check" : stem;
}

function squash(text: string): string {
  return normalize(text).replace(/[\s\p{P}]+/gu, "");
}
