import { lexicon } from "./lexicon.js";
import { classifyReply, type Intent, type ReplyClass } from "./reply-classifier.js";

/**
 * Two replies at or above this score promise the same thing: a compatible action (score 1) times how much their
 * objects agree (weighted Dice; 1 when neither names one, 0.6 when one of them leaves it implicit: "Still checking.").
 */
export const SIMILARITY_THRESHOLD = 0.45;
/** Character-bigram Dice above which two replies in a language the lexicons do not cover count as the same reply. */
export const NEAR_IDENTICAL = 0.85;
const IMPLICIT_OBJECT = 0.6;
const OVERLAP_SHARE = 0.9;

/** fix and edit both change code; inspect and search both look; `continue` ("I'll proceed with the migration") goes with any action. */
function actionAffinity(a: string, b: string): number {
  if (a === b) return 1;
  if ((a === "fix" && b === "edit") || (a === "edit" && b === "fix")) return 1;
  // "look up which version" and "check which version" ask the same question.
  if ((a === "inspect" && b === "search") || (a === "search" && b === "inspect")) return 0.8;
  if (a === "continue" || b === "continue") return 0.9;
  return 0;
}

function weight(token: string): number {
  const lex = lexicon();
  if (lex.generic.has(token)) return 0.5;
  return /[./_@]/.test(token) ? 2 : 1;
}

function weightOf(tokens: Iterable<string>): number {
  let w = 0;
  for (const t of new Set(tokens)) w += weight(t);
  return w;
}

export function objectSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return IMPLICIT_OBJECT;
  const right = new Set(b);
  let shared = 0;
  let total = 0;
  for (const t of new Set(a)) {
    const w = weight(t);
    total += w;
    if (right.has(t)) shared += 2 * w;
  }
  for (const t of right) total += weight(t);
  if (total === 0) return 0;
  // The mean of Dice and the overlap coefficient, or most of the overlap: a paraphrase may add detail to the same
  // object ("add @media rules" / "add @media (max-width: 768px) to Login.vue").
  const dice = shared / total;
  const overlap = shared / 2 / Math.min(weightOf(a), weightOf(right));
  return Math.min(1, Math.max((dice + overlap) / 2, OVERLAP_SHARE * overlap));
}

export function intentSimilarity(a: Intent, b: Intent): number {
  const affinity = actionAffinity(a.action, b.action);
  return affinity === 0 ? 0 : affinity * objectSimilarity(a.object, b.object);
}

/** Similarity of two classified replies: the best pair of their intents, or near-identical text as a fallback. */
export function classSimilarity(a: ReplyClass, b: ReplyClass, textA: string, textB: string): number {
  let best = 0;
  for (const x of a.intents) for (const y of b.intents) best = Math.max(best, intentSimilarity(x, y));
  if (best < 1 && fallbackEligible(a) && fallbackEligible(b) && sameWords(textA, textB)) best = 1;
  return best;
}

/** Replies the near-identical fallback may join: promises, and replies in a language the lexicons do not read. */
export function fallbackEligible(c: ReplyClass): boolean {
  return c.kind === "promise" || c.kind === "unknown-language";
}

export function replySimilarity(a: string, b: string): number {
  return classSimilarity(classifyReply(a), classifyReply(b), a, b);
}

export function isSimilarReply(a: string, b: string): boolean {
  return replySimilarity(a, b) >= SIMILARITY_THRESHOLD;
}

/** The whole replies, or their last sentences (where a promise usually stands), are near-identical. */
function sameWords(a: string, b: string): boolean {
  return nearIdentical(a, b) >= NEAR_IDENTICAL || nearIdentical(lastSentence(a), lastSentence(b)) >= NEAR_IDENTICAL;
}

function lastSentence(text: string): string {
  const parts = text
    .trim()
    .split(/(?<=[.!?])(?=\s|$)|(?<=[。！？])/u)
    .filter((p) => squash(p).length > 0);
  return parts.at(-1) ?? "";
}

/** Dice over character bigrams of the text without spaces and punctuation; 1 for equal texts. */
export function nearIdentical(a: string, b: string): number {
  const x = squash(a);
  const y = squash(b);
  if (x === y) return x.length > 0 ? 1 : 0;
  const left = bigrams(x);
  const right = bigrams(y);
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const g of left) if (right.has(g)) shared++;
  return (2 * shared) / (left.size + right.size);
}

export function squash(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, "");
}

function bigrams(text: string): Set<string> {
  const chars = [...text];
  const out = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) out.add(`${chars[i]}${chars[i + 1]}`);
  return out;
}
