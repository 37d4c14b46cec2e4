import { type RunEvent, UNCOUNTED_STOP_REASONS } from "../../reducers/recovery.js";
import { exhaustive } from "../../reducers/slice.js";
import { classifyReply, type ReplyClass } from "./reply-classifier.js";
import { foldText, userShapeOf } from "./reply-features.js";
import { RUN_MODEL_THRESHOLD, scoreRun } from "./run-model.js";
import { classSimilarity, compatibleReplies, fallbackEligible, SIMILARITY_THRESHOLD } from "./similarity.js";
import { endsTurn, isModelPromise, isOtherLanguage, isSamePromise } from "./stall-model.js";

export type { RunEvent };

export interface RunReply {
  entryId: string;
  text: string;
  /** The user's message the reply answers (none when another reply or a tool result came before it). */
  user?: string | null;
}

/**
 * The counted text-only replies since the last tool call, tool result or anchor (the last `STALL_WINDOW` of them),
 * and the largest group among them that promise the same thing. `repliesSinceFirst` counts the counted replies from
 * that group's first promise on, that one included.
 */
export interface PromiseRun {
  recent: RunReply[];
  promiseEntryIds: string[];
  texts: string[];
  repliesSinceFirst: number;
  stalled: boolean;
  /** The learned scorer's score when it, not the rules, joined the run; null otherwise. */
  learnedScore: number | null;
  /** The user's message since the latest reply; the next reply answers it. */
  user: string | null;
}

export interface StallVerdict {
  stalled: boolean;
  promiseEntryIds: string[];
  reason: string;
}

/** The observed loop: three promises of the same action. Two are common in normal work (announce, then act). */
export const STALL_RUN_LENGTH = 3;
/**
 * The run must fit in this many counted replies from its first promise. Six lets a few short answers to user nudges
 * sit between the promises of one loop; promises further apart are ordinary planning, not a loop.
 */
export const STALL_WINDOW = 6;
export { UNCOUNTED_STOP_REASONS };

const frozen = <T>(list: T[]) => Object.freeze(list) as unknown as T[];

export const EMPTY_RUN: PromiseRun = Object.freeze({
  recent: frozen<RunReply>([]),
  promiseEntryIds: frozen<string>([]),
  texts: frozen<string>([]),
  repliesSinceFirst: 0,
  stalled: false,
  learnedScore: null,
  user: null,
});

/** `learned`: a window whose replies the rules do not group may still form a run under the learned scorer. */
export interface RunOptions {
  learned: boolean;
}

/**
 * One step. Tool calls, tool results and recovery anchors reset the run; user and host messages pass through. Replies
 * are classified lazily: only once two text-only replies sit in the window (memoised per text). Once stalled, a run
 * stays stalled until a reset: nothing else answers the loop.
 */
export function runAdvancer(options: RunOptions): (run: PromiseRun, event: RunEvent) => PromiseRun {
  return (run, event) => step(run, event, options);
}

export const advanceRun = runAdvancer({ learned: true });
/** The hand-written rules alone: what the learned scorer is trained against. */
export const advanceRunByRules = runAdvancer({ learned: false });

function step(run: PromiseRun, event: RunEvent, options: RunOptions): PromiseRun {
  switch (event.type) {
    case "toolResult":
    case "anchor":
      return reset(run);
    case "user":
      if (event.text === undefined || event.text === run.user) return run;
      // The user wrote a new request (longer than any nudge), or answered the question the latest reply asked: the
      // run ends there. (A window of fewer than two replies holds no run to end, and its replies are not classified.)
      if (event.text.length > NEW_REQUEST_CHARS || (run.recent.length >= 2 && asksUser(run.recent.at(-1)))) {
        return { ...EMPTY_RUN, user: event.text };
      }
      return { ...run, user: event.text };
    case "host":
      return run;
    case "assistant":
      if (UNCOUNTED_STOP_REASONS.has(event.stopReason)) return run;
      if (event.toolCalls > 0) return reset(run);
      return afterReply(run, { entryId: event.entryId, text: event.text, user: run.user }, options);
    default:
      return exhaustive(event);
  }
}

export function detectStall(events: readonly RunEvent[]): StallVerdict {
  const run = events.reduce(advanceRun, EMPTY_RUN);
  const n = run.promiseEntryIds.length;
  if (run.stalled) {
    return {
      stalled: true,
      promiseEntryIds: [...run.promiseEntryIds],
      reason: `${n} action-promise replies about the same action without a tool call or result within ${run.repliesSinceFirst} replies${learnedNote(run)}`,
    };
  }
  const reason =
    n === 0 ? "no open action-promise run" : `${n} of ${STALL_RUN_LENGTH} similar promise replies so far, no stall`;
  return { stalled: false, promiseEntryIds: [...run.promiseEntryIds], reason };
}

/** How a run the learned scorer joined says so. */
export function learnedNote(run: { learnedScore: number | null }): string {
  return run.learnedScore === null
    ? ""
    : ` (joined by the learned run scorer: ${run.learnedScore.toFixed(2)} >= ${RUN_MODEL_THRESHOLD})`;
}

function afterReply(run: PromiseRun, reply: RunReply, options: RunOptions): PromiseRun {
  if (run.stalled) {
    const joins =
      isCandidate(reply) &&
      run.texts.some((text, i) =>
        similar(text, reply.text, i === run.texts.length - 1 ? { earlier: run.texts.slice(0, i) } : null),
      );
    return {
      recent: run.recent,
      promiseEntryIds: joins ? [...run.promiseEntryIds, reply.entryId] : run.promiseEntryIds,
      texts: joins ? [...run.texts, reply.text] : run.texts,
      repliesSinceFirst: run.repliesSinceFirst + 1,
      stalled: run.stalled,
      learnedScore: run.learnedScore,
      user: null,
    };
  }
  // A reply the models read that answers the user's question, or hands the turn back (a hand-back, a refusal, a
  // question, a blocker), and promises nothing, ends the run: the conversation moved on. (The rules' sets count a
  // short answer between promises as an aside; theirs stay as they were.)
  if (run.recent.length > 0 && endsRunAsModelRead(reply)) return { ...EMPTY_RUN, recent: [reply] };
  const recent = [...run.recent, reply].slice(-STALL_WINDOW);
  if (recent.length < 2) {
    return {
      recent,
      promiseEntryIds: EMPTY_RUN.promiseEntryIds,
      texts: EMPTY_RUN.texts,
      repliesSinceFirst: 0,
      stalled: false,
      learnedScore: null,
      user: null,
    };
  }
  const group = largestGroup(recent);
  if (group.length < STALL_RUN_LENGTH && options.learned && recent.length >= STALL_RUN_LENGTH) {
    const learned = learnedRun(recent);
    if (learned) return learned;
  }
  const first = group[0] ? recent.indexOf(group[0]) : recent.length;
  return {
    recent,
    promiseEntryIds: group.map((r) => r.entryId),
    texts: group.map((r) => r.text),
    repliesSinceFirst: recent.length - first,
    stalled: group.length >= STALL_RUN_LENGTH,
    learnedScore: null,
    user: null,
  };
}

/** Three replies of the window the learned scorer reads as one promise, when it scores them at its threshold or above. */
function learnedRun(recent: RunReply[]): PromiseRun | null {
  const { score, indices } = scoreRun(recent.map((r) => ({ text: r.text, cls: classifyReply(r.text) })));
  if (indices === null || score < RUN_MODEL_THRESHOLD) return null;
  const members = indices.map((i) => recent[i] as RunReply);
  return {
    recent,
    promiseEntryIds: members.map((r) => r.entryId),
    texts: members.map((r) => r.text),
    repliesSinceFirst: recent.length - indices[0],
    stalled: true,
    learnedScore: score,
    user: null,
  };
}

/** Below this many words of prose the language model cannot tell a language: "Django 5.1 drops `X`." stays English. */
const MIN_PROSE_WORDS = 4;

function proseWords(text: string): number {
  return foldText(text)
    .split(/\s+/)
    .filter((w) => /\p{L}{2}/u.test(w) && !w.includes("⟦")).length;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Replies the rules do not read are read by the trained promise and pair models instead: those in a language other
 * than English, Chinese, Japanese and Korean (the language model says which), unless the rules found a promise.
 */
export function modelReads(c: ReplyClass, text: string): boolean {
  if (c.kind === "empty" || c.kind === "promise" || CJK.test(text)) return false;
  return c.kind === "unknown-language" || (proseWords(text) >= MIN_PROSE_WORDS && isOtherLanguage(text));
}

/** A user message this long is a new request or new material, not a nudge (the longest nudge in the sets: 219). */
export const NEW_REQUEST_CHARS = 280;

const ENDS_WITH_QUESTION = /[?？]\W*$/u;

/** A reply that ends by asking the user something (as the rules read it, or ending in a question and no promise). */
function asksUser(reply: RunReply | undefined): boolean {
  if (reply === undefined) return false;
  const c = classifyReply(reply.text);
  if (c.kind === "question") return true;
  if (!ENDS_WITH_QUESTION.test(reply.text.trimEnd())) return false;
  return modelReads(c, reply.text) && !isModelPromise(reply.text, reply.user ?? null);
}

/** A reply the models read, promising nothing, that answers the user's question or hands the turn back. */
function endsRunAsModelRead(reply: RunReply): boolean {
  if (!modelReads(classifyReply(reply.text), reply.text) || isCandidate(reply)) return false;
  return answersQuestion(reply) || endsTurn(reply.text, reply.user ?? null);
}

/** Whether the user's message the reply answers is a question (not a nudge such as "?" or "and?"). */
export function answersQuestion(reply: Pick<RunReply, "user">): boolean {
  const user = reply.user ?? null;
  return user !== null && ENDS_WITH_QUESTION.test(user) && userShapeOf(user).shape === "question";
}

/** A reply the models read that answers the user's question is a deliverable, whatever it defers to next. */
function isCandidate(reply: RunReply): boolean {
  const c = classifyReply(reply.text);
  if (!modelReads(c, reply.text)) return fallbackEligible(c);
  return !answersQuestion(reply) && isModelPromise(reply.text, reply.user ?? null);
}

function similar(a: string, b: string, adjacent: { earlier: readonly string[] } | null = null): boolean {
  const ca = classifyReply(a);
  const cb = classifyReply(b);
  if (modelReads(ca, a) || modelReads(cb, b)) return isSamePromise(a, b);
  return classSimilarity(ca, cb, a, b, adjacent) >= SIMILARITY_THRESHOLD;
}

/** Connected groups of candidates under "similar" (a paraphrase may drift from the first wording); the largest, latest. */
function largestGroup(recent: readonly RunReply[]): RunReply[] {
  const candidates = recent.filter(isCandidate);
  const group = new Map<RunReply, number>(candidates.map((r, i) => [r, i]));
  const find = (r: RunReply): number => {
    let g = group.get(r) as number;
    while (g !== group.get(candidates[g] as RunReply)) g = group.get(candidates[g] as RunReply) as number;
    return g;
  };
  for (let i = 0; i < candidates.length; i++) {
    for (let j = i + 1; j < candidates.length; j++) {
      const a = candidates[i] as RunReply;
      const b = candidates[j] as RunReply;
      if (
        find(a) !== find(b) &&
        similar(a.text, b.text, j === i + 1 ? { earlier: candidates.slice(0, i).map((c) => c.text) } : null) &&
        compatibleGroups(candidates, find, find(a), find(b))
      )
        group.set(candidates[find(b)] as RunReply, find(a));
    }
  }
  const members = new Map<number, RunReply[]>();
  for (const r of candidates) members.set(find(r), [...(members.get(find(r)) ?? []), r]);
  let best: RunReply[] = [];
  for (const list of members.values()) if (list.length >= best.length) best = list;
  return best.length >= 2 ? best : [];
}

/** Joining two groups keeps every pair of members' actions compatible (one action, however it is phrased). */
function compatibleGroups(
  candidates: readonly RunReply[],
  find: (r: RunReply) => number,
  left: number,
  right: number,
): boolean {
  const members = (g: number) => candidates.filter((r) => find(r) === g).map((r) => classifyReply(r.text));
  const others = members(right);
  return members(left).every((a) => others.every((b) => compatibleReplies(a, b)));
}

function reset(run: PromiseRun): PromiseRun {
  return run.recent.length === 0 && !run.stalled && run.user === null ? run : EMPTY_RUN;
}
