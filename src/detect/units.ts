import { foldTraditional } from "./han.js";

/**
 * The detector's view of text: NFKC (full-width punctuation to ASCII), lower case, straight quotes, Traditional
 * Chinese folded to Simplified; then units, each a Latin word (paths and identifiers stay whole) or one Han character.
 */
export function normalizeText(text: string): string {
  return foldTraditional(
    text
      .normalize("NFKC")
      .toLowerCase()
      .replace(/[\u2018\u2019\u02bc´]/g, "'")
      .replace(/[\u201c\u201d]/g, '"'),
  );
}

const WORD_CHAR = "[[\\p{L}\\p{N}_]--\\p{Script=Han}]";
const UNIT = new RegExp(`\\p{Script=Han}|${WORD_CHAR}+(?:['.\\/\\-@]${WORD_CHAR}+)*|[,:—–]`, "gv");

/** Units of already normalised text ("let me 检查 src/a.ts" -> [let, me, 检, 查, src/a.ts]). */
export function units(normalized: string): string[] {
  return normalized.match(UNIT) ?? [];
}

/**
 * Sentence ends: . before a space or the end ("file.ts", a list number "1." and a package pattern "./..." go on),
 * ! ? ; 。 … and line breaks.
 */
const SENTENCE_END = /(?<=\.)(?<!^[ \t]*\d+\.)(?<!\/\.+)(?=\s|$)|(?<=[!?;。…])|\n+/m;

export function splitSentences(normalized: string): string[] {
  return normalized
    .split(SENTENCE_END)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
