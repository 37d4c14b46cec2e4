import { createRequire } from "node:module";

/** Han text helpers: Traditional-to-Simplified folding (OpenCC) and word boundaries (Intl.Segmenter). */

const HAN = /\p{Script=Han}/u;
export const KANA_OR_HANGUL = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** A Chinese, Japanese or Korean character. */
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

type Convert = (text: string) => string;
let toSimplified: Convert | null = null;

/**
 * Traditional (Taiwan variants) to Simplified, character by character: OpenCC's phrase tables would also rewrite
 * Simplified text (文件 -> 文档), so Taiwan words (档案, 程式) are in the Chinese lexicon instead. OpenCC's t2cn build
 * is loaded on the first Han text (about 50 ms once); later calls cost a few microseconds.
 */
export function foldTraditional(text: string): string {
  if (!HAN.test(text)) return text;
  if (toSimplified === null) {
    const require = createRequire(import.meta.url);
    const opencc = require("opencc-js/t2cn") as { Converter(options: { from: string; to: string }): Convert };
    toSimplified = opencc.Converter({ from: "tw", to: "cn" });
  }
  return toSimplified(text);
}

let segmenter: Intl.Segmenter | null = null;

/**
 * Chinese words of a Han run ("编译错误" -> ["编译", "错误"]); non-word segments are dropped. 进行 stays one word: the
 * segmenter glues its 进 to the noun before it (堆转储进 行分析).
 */
export function hanWords(text: string): string[] {
  segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
  const out: string[] = [];
  const parts = text.split("进行");
  for (const [i, part] of parts.entries()) {
    if (i > 0) out.push("进行");
    for (const s of segmenter.segment(part)) if (s.isWordLike) out.push(s.segment);
  }
  return out;
}
