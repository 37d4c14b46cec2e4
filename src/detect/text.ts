/** Text helpers shared by the classifier and the similarity measure. */

const CJK_CHAR = "[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]";

export const CJK_RUN = new RegExp(`${CJK_CHAR}+`, "gu");
/** Letters and digits that are not CJK: one Latin (or Cyrillic, Greek, ...) word. */
const WORD_CHAR = "[[\\p{L}\\p{N}]--[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]]";
export const WORD = new RegExp(`${WORD_CHAR}+(?:['\\-]${WORD_CHAR}+)*`, "gv");

/** NFKC (full-width ASCII to ASCII), lower case, straight apostrophes. */
export function normalize(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'");
}

export function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

export function cjkChars(text: string): number {
  let count = 0;
  for (const run of text.match(CJK_RUN) ?? []) count += [...run].length;
  return count;
}

/** Where a sentence ends: a full stop before a space or the end ("file.ts" goes on), other stops, a line break. */
const SENTENCE_END = /\.(?=\s|$)|[!?;。！？；\n]/;

export function untilSentenceEnd(text: string): string {
  const end = text.search(SENTENCE_END);
  return end === -1 ? text : text.slice(0, end);
}

export function sentences(text: string): string[] {
  return text
    .split(/(?<=\.)\s+|(?<=[!?;。！？；])|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
