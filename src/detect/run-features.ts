import { lemmatize } from "./intent.js";
import { lexicon } from "./lexicon.js";
import { boundedMemo } from "./memo.js";
import type { ReplyClass } from "./reply-classifier.js";
import { classSimilarity, dice, differentThings, FURTHER_STEP, nearIdentical } from "./similarity.js";
import { normalizeText, units } from "./units.js";

/** A window reply the learned run scorer may read, with what its features need computed once. */
export interface Candidate {
  text: string;
  cls: ReplyClass;
  /** Its place among the window's counted replies. */
  index: number;
  grams: ReadonlySet<string>;
  units: number;
  /** Opens as a further step: "Then I'll …", 然后 …. */
  further: boolean;
}

/** How alike two candidates are, by each measure the scorer weighs. */
export interface PairScores {
  rule: number;
  content: number;
  chars: number;
  differentThings: boolean;
}

/**
 * Kinds that may hide a promise the rules did not read ("Checking the logs now.", 现在就去跑一下测试。) when short and
 * naming an action. Replies in a language the lexicons do not read are left to the rules' near-identical fallback.
 */
const WEAK_KINDS = new Set(["factual", "status"]);
/** Longer replies of a weak kind are answers, not promises in another form. */
const WEAK_MAX_UNITS = 40;
/** Replies this short (units) are one-liners; runs of them are more often chatter than a loop. */
const SHORT_UNITS = 25;

export function toCandidate(text: string, cls: ReplyClass, index: number): Candidate | null {
  if (cls.kind !== "promise" && !WEAK_KINDS.has(cls.kind)) return null;
  const { length, grams, further, acting } = readings(text, () => read(text));
  const eligible = cls.kind === "promise" || (length <= WEAK_MAX_UNITS && acting);
  return eligible ? { text, cls, index, grams, units: length, further } : null;
}

/** What a candidate needs from its text, memoised by text like the classifier's readings. */
const readings = boundedMemo<{ length: number; grams: Set<string>; further: boolean; acting: boolean }>();

function read(text: string) {
  const normalized = normalizeText(text);
  const seq = units(normalized);
  return {
    length: seq.length,
    grams: contentGrams(seq),
    further: FURTHER_STEP.test(normalized.trim()),
    acting: namesAction(seq),
  };
}

/**
 * Some verb of the action lexicons stands in the reply: "Checking the logs now." An answer names none, or states a
 * fact with a finite verb ("The build has 3 errors.", "The build uses tsc 5.6.", 端口是 8080).
 */
function namesAction(seq: readonly string[]): boolean {
  const lex = lexicon();
  if (seq.some((u) => lex.enFiniteVerbs.has(u) || u === "是")) return false;
  for (let at = 0; at < seq.length; at++) if (lex.verbs.match(seq, at, lex.fillerUnits)?.phrase.action) return true;
  return false;
}

export function pairScores(a: Candidate, b: Candidate): PairScores {
  return {
    rule: Math.min(1, classSimilarity(a.cls, b.cls, a.text, b.text)),
    content: dice(a.grams, b.grams),
    chars: nearIdentical(a.text, b.text),
    differentThings: a.cls.intents.some((x) => b.cls.intents.some((y) => differentThings(x.object, y.object))),
  };
}

/** The names of the features, in the order `runFeatures` returns them (the model's weights follow this order). */
export const FEATURE_NAMES = [
  "bias",
  "promises",
  "rule-sim-min",
  "rule-sim-max",
  "content-min",
  "content-max",
  "chars-min",
  "chars-max",
  "one-action",
  "different-things",
  "gaps",
  "short",
  "weak-content",
  "further-step",
] as const;

/**
 * Features of three candidates taken as one run (in window order) from their three pairs (01, 02, 12): how many the
 * rules read as promises, how alike each pair is (the rules' similarity, shared content words and Han bigrams, shared
 * characters), whether they name one action or different files or symbols, how far apart they sit, and how well the
 * replies the rules did not read as promises match the others.
 */
export function runFeatures(
  replies: readonly [Candidate, Candidate, Candidate],
  pairs: readonly [PairScores, PairScores, PairScores],
): number[] {
  const rule = pairs.map((p) => p.rule);
  const content = pairs.map((p) => p.content);
  const chars = pairs.map((p) => p.chars);
  const promises = replies.filter((r) => r.cls.kind === "promise").length;
  const actions = new Set(replies.flatMap((r) => r.cls.intents.map((i) => i.action)));
  // Each reply's pairs: 0 in 01 and 02, 1 in 01 and 12, 2 in 02 and 12.
  const own = [
    [0, 1],
    [0, 2],
    [1, 2],
  ] as const;
  const weak = replies.map((r, i) =>
    r.cls.kind === "promise" ? 1 : Math.max(...(own[i] ?? []).map((k) => content[k] ?? 0)),
  );
  return [
    1,
    promises / 3,
    Math.min(...rule),
    Math.max(...rule),
    Math.min(...content),
    Math.max(...content),
    Math.min(...chars),
    Math.max(...chars),
    actions.size <= 1 ? 1 : 0,
    pairs.filter((p) => p.differentThings).length / 3,
    (replies[2].index - replies[0].index - 2) / 3,
    replies.every((r) => r.units <= SHORT_UNITS) ? 1 : 0,
    Math.min(...weak),
    replies.slice(1).filter((r) => r.further).length / 2,
  ];
}

const HAN = /\p{Script=Han}/u;

/**
 * Content of a reply, from its units: lemmas of words outside the stop lists (concepts folded) and bigrams of Han
 * characters.
 */
function contentGrams(seq: readonly string[]): Set<string> {
  const lex = lexicon();
  const out = new Set<string>();
  let han = "";
  const flush = () => {
    for (let i = 0; i + 1 < han.length; i++) out.add(han.slice(i, i + 2));
    if (han.length === 1 && !lex.zhStopWords.has(han)) out.add(han);
    han = "";
  };
  for (const unit of seq) {
    if (HAN.test(unit)) {
      han += unit;
      continue;
    }
    flush();
    if (unit.length < 2 || lex.enStopWords.has(unit) || lex.pronouns.has(unit)) continue;
    const lemma = lemmatize(unit, lex);
    out.add(lex.concepts.get(lemma) ?? lemma);
  }
  flush();
  return out;
}
