import { boundedMemo } from "./memo.js";
import model from "./model/run-model.json" with { type: "json" };
import type { ReplyClass } from "./reply-classifier.js";
import {
  type Candidate,
  FEATURE_NAMES,
  type PairScores,
  pairScores,
  runFeatures,
  toCandidate,
} from "./run-features.js";

export { FEATURE_NAMES };

/** A window reply as the run scorer reads it. */
export interface WindowReply {
  text: string;
  cls: ReplyClass;
}

export interface ScoredTriple {
  /** Positions of the three replies in the window, in order. */
  indices: [number, number, number];
  features: number[];
}

export interface RunScore {
  score: number;
  indices: [number, number, number] | null;
}

/** At least this many of the three are promises the rules read: the scorer joins replies, it finds no run alone. */
const MIN_RULE_PROMISES: number = model.minRulePromises;

const weights = FEATURE_NAMES.map((name) => (model.features as Record<string, number>)[name] ?? 0);

/** The learned scorer's threshold (chosen with its training); a run scoring at or above it is a stall. */
export const RUN_MODEL_THRESHOLD: number = model.threshold;

/** Pairs memoised by their texts: each new reply of a window brings at most five new pairs. */
const pairMemo = boundedMemo<PairScores>();

/** Every three replies of the window that could form a run, with their features. */
export function runTriples(window: readonly WindowReply[]): ScoredTriple[] {
  const candidates = window.flatMap((r, i) => toCandidate(r.text, r.cls, i) ?? []);
  if (candidates.filter((c) => c.cls.kind === "promise").length < MIN_RULE_PROMISES) return [];
  const pair = (a: Candidate, b: Candidate) => pairMemo(`${a.text}\u0000${b.text}`, () => pairScores(a, b));
  const out: ScoredTriple[] = [];
  for (let i = 0; i < candidates.length; i++) {
    for (let j = i + 1; j < candidates.length; j++) {
      for (let k = j + 1; k < candidates.length; k++) {
        const triple = [candidates[i], candidates[j], candidates[k]] as [Candidate, Candidate, Candidate];
        if (triple.filter((r) => r.cls.kind === "promise").length < MIN_RULE_PROMISES) continue;
        const [a, b, c] = triple;
        out.push({
          indices: [a.index, b.index, c.index],
          features: runFeatures(triple, [pair(a, b), pair(a, c), pair(b, c)]),
        });
      }
    }
  }
  return out;
}

/** The best-scoring three replies of the window under the learned weights (logistic); score 0 when none can form. */
export function scoreRun(window: readonly WindowReply[]): RunScore {
  let best: RunScore = { score: 0, indices: null };
  for (const triple of runTriples(window)) {
    const z = triple.features.reduce((sum, x, i) => sum + x * (weights[i] ?? 0), 0);
    const score = 1 / (1 + Math.exp(-z));
    if (score > best.score) best = { score, indices: triple.indices };
  }
  return best;
}
