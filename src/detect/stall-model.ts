import { readFileSync } from "node:fs";
import { boundedMemo } from "./memo.js";
import {
  PAIR_FEATURE_NAMES,
  PAIR_WORD_BITS,
  type PairSide,
  pairFeatures,
  pairSide,
  pairWordSlots,
} from "./pair-features.js";
import { FEATURE_BITS, type Features, replyFeatures } from "./reply-features.js";

/** The trained promise and pair models, as `npm run train:stall` writes them. */
export interface StallModel {
  about: string;
  /** Hashed feature slots of the reply model (2^bits). */
  bits: number;
  /** The reply model's weights, quantised to signed bytes (base64), times `scale`. */
  weights: string;
  scale: number;
  bias: number;
  /** A reply is a promise at this probability or above (chosen by cross-validation in the trainer). */
  threshold: number;
  pair: {
    names: string[];
    weights: number[];
    bias: number;
    threshold: number;
    /** The word features' weights (`pairWordSlots`), quantised as the reply model's; absent in an earlier model. */
    words?: { weights: string; scale: number };
  };
  /**
   * A reply read below `threshold` but at or above this joins two promises the pair model reads as its own (a loop's
   * weaker wording). Chosen by the trainer; absent or null: none joins.
   */
  support?: number | null;
  /**
   * How sure the promise model must be to overrule the rules' reading of a reply as no promise, in a language they
   * read. Chosen by the trainer on the retired splits.
   */
  overrule: number;
  /**
   * How sure the promise model must be that a reply the rules read as a promise is one, for it to count: below this,
   * the model's reading stands. Chosen by the trainer on the retired splits; absent or null: the rules' promise counts.
   */
  confirm?: number | null;
  /**
   * Whether a reply hands the turn back to the user (a hand-back, a refusal, a question, a blocker report), over the
   * same features; such a reply ends a run. Absent in a model trained before it.
   */
  turn?: { weights: string; scale: number; bias: number; threshold: number };
}

interface Loaded {
  model: StallModel;
  weights: Int8Array;
  turn: Int8Array | null;
  pairWords: Int8Array | null;
}

let loaded: Loaded | null = null;
let promiseMemo = boundedMemo<number>();
let sideMemo = boundedMemo<PairSide>();
let turnMemo = boundedMemo<number>();
/** The promise and turn models read the same features of a reply: built once for both. */
const featuresMemo = boundedMemo<Features>(256);
const featuresOf = (text: string, user: string | null) =>
  featuresMemo(user === null ? text : `${user}\u0000${text}`, () => replyFeatures(text, user));

function load(): Loaded {
  if (loaded === null) {
    const text = readFileSync(new URL("./model/stall-model.json", import.meta.url), "utf8");
    useStallModel(JSON.parse(text) as StallModel);
  }
  return loaded as Loaded;
}

/** Replaces the model (the trainer scores its folds through the detector this way). */
export function useStallModel(model: StallModel): void {
  if (model.bits !== FEATURE_BITS) throw new Error(`stall model: ${model.bits} feature bits, expected ${FEATURE_BITS}`);
  if (model.pair.names.join() !== PAIR_FEATURE_NAMES.join()) throw new Error("stall model: pair features differ");
  const bytes = (base64: string) => {
    const buffer = Buffer.from(base64, "base64");
    return new Int8Array(buffer.buffer, buffer.byteOffset, buffer.length);
  };
  const turn = model.turn ? bytes(model.turn.weights) : null;
  const pairWords = model.pair.words ? bytes(model.pair.words.weights) : null;
  if (pairWords !== null && pairWords.length !== 1 << PAIR_WORD_BITS) {
    throw new Error(`stall model: ${pairWords.length} pair word slots, expected ${1 << PAIR_WORD_BITS}`);
  }
  loaded = { model, weights: bytes(model.weights), turn, pairWords };
  turnMemo = boundedMemo<number>();
  promiseMemo = boundedMemo<number>();
  sideMemo = boundedMemo<PairSide>();
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

function dot(weights: Int8Array, scale: number, bias: number, { slots, values }: Features): number {
  let z = bias;
  for (let i = 0; i < slots.length; i++) z += (weights[slots[i] as number] as number) * scale * (values[i] as number);
  return z;
}

/**
 * The probability that the reply, by its closing sentences, promises an action it does not take; `user` is the
 * user's message it answers (null when another reply or a tool result came before it).
 */
export function promiseProbability(text: string, user: string | null = null): number {
  return promiseMemo(user === null ? text : `${user}\u0000${text}`, () => {
    const { model, weights } = load();
    return sigmoid(dot(weights, model.scale, model.bias, featuresOf(text, user)));
  });
}

/** Why the promise model reads a reply as it does: its probability and the features that weighed most that way. */
export function explainPromise(text: string, user: string | null, count = 3): { probability: number; top: string[] } {
  const { model, weights } = load();
  const names = new Map<number, string>();
  const { slots, values } = replyFeatures(text, user, names);
  const probability = promiseProbability(text, user);
  const sign = probability >= model.threshold ? 1 : -1;
  const top = slots
    .map((slot, i) => ({ slot, weight: (weights[slot] as number) * model.scale * (values[i] as number) * sign }))
    .filter((f) => f.weight > 0)
    .sort((a, b) => b.weight - a.weight)
    .slice(0, count)
    .map((f) => names.get(f.slot) ?? `feature ${f.slot}`);
  return { probability, top };
}

/** The threshold at which the promise model reads a reply as a promise. */
export function promiseThreshold(): number {
  return load().model.threshold;
}

/** How sure the promise model must be that a promise the rules read is one (null: the rules' reading stands). */
export function confirmThreshold(): number | null {
  return load().model.confirm ?? null;
}

/** How sure the promise model must be to overrule the rules' reading of a reply as no promise. */
export function overruleThreshold(): number {
  return load().model.overrule;
}

/** The probability at or above which a reply may join two promises of its own (null: none joins). */
export function supportThreshold(): number | null {
  return load().model.support ?? null;
}

export function isModelPromise(text: string, user: string | null = null): boolean {
  return promiseProbability(text, user) >= load().model.threshold;
}

/** The probability that two promises announce the same action on the same object. */
export function samePromiseProbability(a: string, b: string): number {
  const { model, pairWords } = load();
  const { pair } = model;
  const sideA = sideMemo(a, () => pairSide(a));
  const sideB = sideMemo(b, () => pairSide(b));
  let z = pairFeatures(sideA, sideB).reduce((sum, v, i) => sum + v * (pair.weights[i] ?? 0), pair.bias);
  if (pairWords !== null && pair.words) {
    const slots = pairWordSlots(sideA, sideB);
    const value = pair.words.scale / Math.sqrt(slots.length || 1);
    for (const slot of slots) z += (pairWords[slot] as number) * value;
  }
  return sigmoid(z);
}

export function isSamePromise(a: string, b: string): boolean {
  return samePromiseProbability(a, b) >= load().model.pair.threshold;
}

/** The probability that the reply hands the turn back to the user (0 when the model has no turn model). */
export function turnProbability(text: string, user: string | null = null): number {
  return turnMemo(user === null ? text : `${user}\u0000${text}`, () => {
    const { model, turn } = load();
    if (turn === null || !model.turn) return 0;
    return sigmoid(dot(turn, model.turn.scale, model.turn.bias, featuresOf(text, user)));
  });
}

/** Whether the reply hands the turn back (a hand-back, refusal, question or blocker report): it ends a run. */
export function endsTurn(text: string, user: string | null = null): boolean {
  const { turn } = load().model;
  return turn !== undefined && turnProbability(text, user) >= turn.threshold;
}

/** The threshold at which the turn model reads a reply as handing the turn back (null without one). */
export function turnThreshold(): number | null {
  return load().model.turn?.threshold ?? null;
}
