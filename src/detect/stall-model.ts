import { readFileSync } from "node:fs";
import { boundedMemo } from "./memo.js";
import { PAIR_FEATURE_NAMES, type PairSide, pairFeatures, pairSide } from "./pair-features.js";
import { FEATURE_BITS, replyFeatures } from "./reply-features.js";

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
  pair: { names: string[]; weights: number[]; bias: number; threshold: number };
}

interface Loaded {
  model: StallModel;
  weights: Int8Array;
}

let loaded: Loaded | null = null;
let promiseMemo = boundedMemo<number>();
let sideMemo = boundedMemo<PairSide>();

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
  const bytes = Buffer.from(model.weights, "base64");
  loaded = { model, weights: new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length) };
  promiseMemo = boundedMemo<number>();
  sideMemo = boundedMemo<PairSide>();
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The probability that the reply, by its closing sentences, promises an action it does not take. */
export function promiseProbability(text: string): number {
  return promiseMemo(text, () => {
    const { model, weights } = load();
    const { slots, values } = replyFeatures(text);
    let z = model.bias;
    for (let i = 0; i < slots.length; i++)
      z += (weights[slots[i] as number] as number) * model.scale * (values[i] as number);
    return sigmoid(z);
  });
}

export function isModelPromise(text: string): boolean {
  return promiseProbability(text) >= load().model.threshold;
}

/** The probability that two promises announce the same action on the same object. */
export function samePromiseProbability(a: string, b: string): number {
  const { pair } = load().model;
  const x = pairFeatures(
    sideMemo(a, () => pairSide(a)),
    sideMemo(b, () => pairSide(b)),
  );
  return sigmoid(x.reduce((z, v, i) => z + v * (pair.weights[i] ?? 0), pair.bias));
}

export function isSamePromise(a: string, b: string): boolean {
  return samePromiseProbability(a, b) >= load().model.pair.threshold;
}
