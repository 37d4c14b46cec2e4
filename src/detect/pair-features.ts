import { classifyReply, type ReplyClass } from "./reply-classifier.js";
import { closingOf, closingSentencesOf, closingText, foldText, hashSlot } from "./reply-features.js";
import { classSimilarity, compatibleReplies } from "./similarity.js";

/**
 * What the pair model reads of two promises: how alike their closing clauses are, the objects they name, and how the
 * hand-written rules read the pair (their similarity, and whether they read both as promises of compatible actions).
 */
export const PAIR_FEATURE_NAMES = [
  "closing-trigrams",
  "whole-trigrams",
  "closing-words",
  "objects-shared",
  "objects-disjoint",
  "objects-jaccard",
  "object-words-mentioned",
  "numbers-disjoint",
  "one-names-none",
  "rules-both-promises",
  "rules-similarity",
  "rules-incompatible",
] as const;

/** Slots of the pair's word features (a power of two). */
export const PAIR_WORD_BITS = 14;
const HAN_OR_KANA_OR_HANGUL = /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul}/u;

const OBJECT =
  /`[^`\n]{1,120}`|[\p{L}\p{N}_-]*[./\\][\p{L}\p{N}_./\\-]+|\b[\p{L}_]+\d[\p{L}\p{N}_]*|\b[a-z]+[A-Z][\p{L}\p{N}]*|\b\w+_\w+\b/gu;

function trigrams(text: string): Map<string, number> {
  const chars = Array.from(` ${text} `);
  const out = new Map<string, number>();
  for (let i = 0; i + 3 <= chars.length; i++) {
    const g = chars.slice(i, i + 3).join("");
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

function words(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const w of text.split(/[^\p{L}\p{N}]+/u)) if (w) out.set(w, (out.get(w) ?? 0) + 1);
  return out;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    const w = b.get(k);
    if (w !== undefined) dot += v * w;
  }
  for (const v of b.values()) nb += v * v;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Words of three letters or more, camelCase and snake_case split, folded. */
function wordsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").split(/[^\p{L}\p{N}]+|_/u)) {
    if (w.length >= 3) out.add(w.toLowerCase());
  }
  return out;
}

/**
 * The names of the files, paths, identifiers and code spans an NFKC-folded reply mentions, lower-cased, and the words
 * naming them: of a path its last part, of a file name its stem ("`src/vite.config.ts`" -> vite, config), so that
 * the same object renamed in prose ("the Vite config") still shares them. One pass of `OBJECT` gives both.
 */
function objectNamesOf(folded: string): { names: Set<string>; words: Set<string> } {
  const names = new Set<string>();
  const words = new Set<string>();
  for (const m of folded.matchAll(OBJECT)) {
    const name = m[0].replace(/^`|`$/g, "").replace(/[.,:;]+$/, "");
    if (name.length >= 2) names.add(name.toLowerCase());
    const last = name.split(/[/\\]/).filter(Boolean).pop() ?? "";
    for (const w of wordsOf(last.replace(/\.[a-z]{1,4}$/, ""))) words.add(w);
  }
  return { names, words };
}

/** Names of files, paths, identifiers and code spans a reply mentions, folded. */
export function objectsOf(raw: string): Set<string> {
  return objectNamesOf(raw.normalize("NFKC")).names;
}

/** The share of one side's object words the other side mentions, the larger way round (0 when neither names one). */
function mentioned(a: PairSide, b: PairSide): number {
  const share = (from: Set<string>, words: Set<string>) => {
    if (from.size === 0) return 0;
    let n = 0;
    for (const w of from) if (words.has(w)) n++;
    return n / from.size;
  };
  return Math.max(share(a.objectWords, b.words), share(b.objectWords, a.words));
}

/** The closing sentences of a reply, folded, with its objects: read once per reply. */
export interface PairSide {
  raw: string;
  rules: ReplyClass;
  closing: string;
  whole: string;
  objects: Set<string>;
  /** The words naming its objects (`objectNamesOf`). */
  objectWords: Set<string>;
  /** Every word of the reply, split as object names are. */
  words: Set<string>;
  numbers: Set<string>;
  /** The closing sentences' words of two letters or more, and their pairs of Chinese, Japanese or Korean characters. */
  closingWords: Set<string>;
  /** The first word of each closing sentence (of Chinese, Japanese or Korean, its first two characters). */
  leads: Set<string>;
}

export function pairSide(raw: string): PairSide {
  const folded = raw.normalize("NFKC");
  const unmasked = folded.toLowerCase().replace(/\s+/g, " ");
  const objects = objectNamesOf(folded);
  const sentences = closingSentencesOf(foldText(raw));
  const closing = closingText(sentences);
  return {
    raw,
    rules: classifyReply(raw),
    closing,
    closingWords: closingWordsOf(closing),
    leads: leadsOf(sentences),
    whole: unmasked.slice(-600),
    objects: objects.names,
    objectWords: objects.words,
    words: wordsOf(folded),
    numbers: new Set(closingOf(unmasked).match(/\d+/g) ?? []),
  };
}

/** The pair's features, in `PAIR_FEATURE_NAMES` order. */
export function pairFeatures(a: PairSide, b: PairSide): number[] {
  let shared = 0;
  for (const o of a.objects) if (b.objects.has(o)) shared++;
  const union = a.objects.size + b.objects.size - shared;
  const bothName = a.objects.size > 0 && b.objects.size > 0;
  let sharedNumbers = 0;
  for (const n of a.numbers) if (b.numbers.has(n)) sharedNumbers++;
  return [
    cosine(trigrams(a.closing), trigrams(b.closing)),
    cosine(trigrams(a.whole), trigrams(b.whole)),
    cosine(words(a.closing), words(b.closing)),
    shared > 0 ? 1 : 0,
    bothName && shared === 0 ? 1 : 0,
    union === 0 ? 0 : shared / union,
    mentioned(a, b),
    a.numbers.size > 0 && b.numbers.size > 0 && sharedNumbers === 0 ? 1 : 0,
    bothName ? 0 : a.objects.size + b.objects.size > 0 ? 1 : 0,
    ...rulesFeatures(a, b),
  ];
}

function rulesFeatures(a: PairSide, b: PairSide): number[] {
  if (a.rules.kind !== "promise" || b.rules.kind !== "promise") return [0, 0, 0];
  return [1, classSimilarity(a.rules, b.rules, a.raw, b.raw), compatibleReplies(a.rules, b.rules) ? 0 : 1];
}

function closingWordsOf(closing: string): Set<string> {
  const out = new Set<string>();
  for (const word of closing.split(/[^\p{L}\p{N}⟦⟧]+/u)) if (word.length >= 2) out.add(word);
  for (let i = 0; i + 2 <= closing.length; i++) {
    const pair = closing.slice(i, i + 2);
    if (HAN_OR_KANA_OR_HANGUL.test(pair)) out.add(pair);
  }
  return out;
}

function leadsOf(sentences: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const sentence of sentences) {
    const start = sentence.replace(/^[^\p{L}\p{N}]+/u, "");
    const lead = HAN_OR_KANA_OR_HANGUL.test(start.charAt(0)) ? start.slice(0, 2) : /^[\p{L}\p{N}]+/u.exec(start)?.[0];
    if (lead) out.add(lead);
  }
  return out;
}

/**
 * The pair's word features, hashed: each word of the closing sentences that only one of the two holds (what differs
 * between them: another verb, another file), and each that both hold; and the same of the words their closing
 * sentences begin with, apart ("first …" / "then …", "also …": a plan walked through). The pair model learns which
 * differences make another step, in every language of its training data.
 */
export function pairWordSlots(a: PairSide, b: PairSide): number[] {
  const slots: number[] = [];
  for (const word of a.closingWords) slots.push(hashSlot(b.closingWords.has(word) ? "s" : "d", word, PAIR_WORD_BITS));
  for (const word of b.closingWords) if (!a.closingWords.has(word)) slots.push(hashSlot("d", word, PAIR_WORD_BITS));
  for (const lead of a.leads) slots.push(hashSlot(b.leads.has(lead) ? "t" : "e", lead, PAIR_WORD_BITS));
  for (const lead of b.leads) if (!a.leads.has(lead)) slots.push(hashSlot("e", lead, PAIR_WORD_BITS));
  return slots;
}
