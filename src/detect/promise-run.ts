import { type RunEvent, UNCOUNTED_STOP_REASONS } from "../../reducers/recovery.js";
import { exhaustive } from "../../reducers/slice.js";
import { CJK, KANA_OR_HANGUL } from "./han.js";
import { objectsOf } from "./pair-features.js";
import { classifyReply } from "./reply-classifier.js";
import { closingOf, foldText, leadWidth, NUDGE_CHARS, textWidth, userShapeOf } from "./reply-features.js";
import { RUN_MODEL_THRESHOLD, scoreRun } from "./run-model.js";
import { classSimilarity, compatibleReplies, SIMILARITY_THRESHOLD } from "./similarity.js";
import {
  confirmThreshold,
  endsTurn,
  isModelPromise,
  isSamePromise,
  overruleThreshold,
  promiseProbability,
  promiseThreshold,
  supportThreshold,
  turnProbability,
} from "./stall-model.js";

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
  /**
   * The two readers' own runs over the same events: the hand-written rules' and the trained models'. The fields above
   * are the run reported: a stalled one (the rules' first), else the one with more promises.
   */
  readers: { rules: ReaderRun; models: ReaderRun };
}

/** One reader's run: the fields of a run without the readers. */
export type ReaderRun = Omit<PromiseRun, "readers">;

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

const EMPTY_READER: ReaderRun = Object.freeze({
  recent: frozen<RunReply>([]),
  promiseEntryIds: frozen<string>([]),
  texts: frozen<string>([]),
  repliesSinceFirst: 0,
  stalled: false,
  learnedScore: null,
  user: null,
});

export const EMPTY_RUN: PromiseRun = Object.freeze({
  ...EMPTY_READER,
  readers: Object.freeze({ rules: EMPTY_READER, models: EMPTY_READER }),
});

/**
 * How a reader reads replies: which are promises, which two promise the same thing, which end the run. `learned`:
 * a window whose replies the rules do not group may still form a run under the learned run scorer.
 */
interface Reader {
  candidate(reply: RunReply): boolean;
  /** The reply ends by asking the user something: the user's answer ends the run. */
  asks(reply: RunReply): boolean;
  similar(a: string, b: string, adjacent: { earlier: readonly string[] } | null): boolean;
  endsRun(reply: RunReply): boolean;
  /** Joined groups must keep every pair of members' actions compatible (the rules' intents). */
  actionsAgree: boolean;
  learned: boolean;
  /** A promise right after the user asked only whether anything is happening joins the promise before it. */
  joinsAfterWait: boolean;
}

/**
 * What the rules read as something other than a promise: the models overrule it only at the trained `overrule`
 * probability. Not their "question": that is the reply's last mark, which closes a tag question ("…, okay?") as often
 * as a hand-back. Nor their "status": a status report's last line is the next step as often as not.
 */
const RULES_READ_OTHERWISE = new Set(["deliverable", "refusal", "blocker", "conditional", "past"]);

const LIST_ITEM = /^\s*(?:[-*+]\s|•|\d+[.)]\s|\d+、|[a-z][.)]\s)\s*\S/u;
const INTRODUCES = /[:：]\s*(?:\*\*)?\s*$/u;

/**
 * The reply ends with a list that the line before it introduces with a colon ("I'll go through these: - …"): what the
 * agent is about to check as often as what it hands over, so its shape decides nothing.
 */
export function endsWithIntroducedList(text: string): boolean {
  const lines = text.trimEnd().split("\n");
  let at = lines.length - 1;
  if (!LIST_ITEM.test(lines[at] ?? "")) return false;
  while (at >= 0 && LIST_ITEM.test(lines[at] as string)) at--;
  while (at >= 0 && (lines[at] as string).trim() === "") at--;
  return at >= 0 && INTRODUCES.test(lines[at] as string);
}

/**
 * The rules read the reply as no promise: a deliverable, a question, a refusal and the like, and in Chinese, Japanese
 * and Korean (which their lexicons read word by word) a reply with no action-promise phrase too. Only in the languages
 * they read: elsewhere what they call a deliverable is the reply's shape, as common among promises as among the rest.
 * Nor where the reply ends with a list it introduces: the promise model alone reads a checklist opener.
 */
function rulesReadOtherwise(text: string): boolean {
  const { kind, readable } = classifyReply(text);
  if (!readable) return false;
  // Their Japanese and Korean past reading is of any sentence, a promise's lead-in ("…でした。次: …") as often.
  if (kind === "past" && KANA_OR_HANGUL.test(text)) return false;
  if (endsWithIntroducedList(text)) return false;
  return RULES_READ_OTHERWISE.has(kind) || (kind === "factual" && CJK.test(text));
}

/** The rules' reading of the reply as no promise stands against the promise model's `probability`. */
export function rulesVeto(text: string, probability: number): boolean {
  return probability < overruleThreshold() && rulesReadOtherwise(text);
}

/** The lexicon's reading of the reply is an action promise. */
const rulesPromise = (reply: RunReply) => classifyReply(reply.text).kind === "promise";

/**
 * The promise model reads no promise in the reply's words: below the trained `confirm` probability its reading stands
 * against the rules' promise ("…I'll check with you before pruning anything", read by the rules as a promise to check).
 * It reads the reply alone, as the rules do: whether the reply answers the user's question is `answersAndDefers`' call.
 */
export function modelDenies({ text }: Pick<RunReply, "text">): boolean {
  const confirm = confirmThreshold();
  return confirm !== null && promiseProbability(text, null) < confirm;
}

/**
 * The reply answers the user's question and defers: the rules read a promise, but they do not read the user's message;
 * the promise model, which does, reads none (a question such as "are you running it?" it reads as a nudge).
 */
export function answersAndDefers(reply: Pick<RunReply, "text" | "user">): boolean {
  return answersWithMore(reply) && !isModelPromise(reply.text, reply.user ?? null);
}

/**
 * The turn model reads the reply as handing the turn back ("…I'll check with you before touching it"), and more surely
 * than the promise model reads a promise: whoever reads a promise in it, it is none.
 */
export function handsTurnBack({ text, user }: Pick<RunReply, "text" | "user">): boolean {
  const asked = user ?? null;
  return endsTurn(text, asked) && turnProbability(text, asked) > promiseProbability(text, asked);
}

/**
 * The hand-written rules: the lexicon's promises and their similarity (a reply they cannot read is the models'). A
 * promise that answers the user's question is a deliverable to them too, unless the promise model reads it as one,
 * and it ends the run: the conversation moved on. So is one the turn model reads as handing the turn back, and one
 * the promise model denies (`modelDenies`).
 */
const RULES: Reader = {
  candidate: (reply) => rulesPromise(reply) && !answersAndDefers(reply) && !handsTurnBack(reply) && !modelDenies(reply),
  asks: (reply) => classifyReply(reply.text).kind === "question",
  similar: (a, b, adjacent) =>
    classSimilarity(classifyReply(a), classifyReply(b), a, b, adjacent) >= SIMILARITY_THRESHOLD,
  endsRun: (reply) => answersAndDefers(reply) || (!RULES.candidate(reply) && pastFiller(reply)),
  actionsAgree: true,
  learned: true,
  joinsAfterWait: false,
};

/**
 * The trained models, reading every reply in any language (the rules' verdicts are among their features). They
 * overrule a reply the rules read as no promise only at the trained `overrule` probability, and two replies the rules
 * both read as promises compare as the rules compare them. They also take the rules' promises that say enough: a run
 * may mix replies only the rules read as promises with ones only the model reads, which neither reader alone holds.
 */
const MODELS: Reader = {
  candidate: (reply) =>
    saysEnough(reply.text) && (RULES.candidate(reply) || (!answersWithMore(reply) && modelReadsPromise(reply))),
  asks: (reply) => asksInClosing(reply.text) && !isModelPromise(reply.text, reply.user ?? null),
  similar: (a, b, adjacent) =>
    classifyReply(a).kind === "promise" && classifyReply(b).kind === "promise"
      ? RULES.similar(a, b, adjacent)
      : isSamePromise(a, b),
  // A reply that answers the user's question, or hands the turn back (a hand-back, a refusal, a question, a blocker),
  // or says more than a filler, and promises nothing, ends the run: the conversation moved on.
  endsRun: (reply) =>
    !MODELS.candidate(reply) &&
    (pastFiller(reply) || answersQuestion(reply) || endsTurn(reply.text, reply.user ?? null)),
  actionsAgree: false,
  learned: false,
  joinsAfterWait: true,
};

/**
 * The promise model reads a promise, the turn model does not read the reply as handing the turn back more surely, and
 * the rules do not read it otherwise unless the promise model reads it at the `overrule` probability.
 */
function modelReadsPromise(reply: RunReply): boolean {
  const probability = promiseProbability(reply.text, reply.user ?? null);
  return probability >= promiseThreshold() && !handsTurnBack(reply) && !rulesVeto(reply.text, probability);
}

/**
 * Longer than this (a Chinese, Japanese or Korean character counting twice), a reply that promises nothing is not a
 * filler between a loop's promises ("Sorry about that.", "One moment."): it answered, reported or handed back, and
 * ends the run, stalled or not.
 */
export const FILLER_WIDTH = 80;

/** The reply is longer than a filler. */
export const pastFiller = ({ text }: Pick<RunReply, "text">) => textWidth(text) > FILLER_WIDTH;

/** Words a reply needs to promise something the models may join (two CJK characters count as a word). */
const MIN_PROMISE_WORDS = 3;
const WORDLIKE = /[\p{L}\p{N}]/u;

/**
 * The reply says enough to promise an action on something: three words, or a file, path or identifier. "One sec.",
 * "Still here.", "Vâng." between the promises of a loop are fillers, not promises of it: joined, they carried runs
 * spread over more than six replies into the window.
 */
export function saysEnough(text: string): boolean {
  let words = 0;
  for (const [word] of text.matchAll(/\S+/gu)) {
    if (WORDLIKE.test(word) && ++words >= MIN_PROMISE_WORDS) return true;
  }
  let cjk = 0;
  for (const char of text) if (CJK.test(char) && ++cjk >= 2 * MIN_PROMISE_WORDS) return true;
  return words > 0 && objectsOf(text).size > 0;
}

/**
 * How each reader reads one reply, given the user's message it answers: whether it is a promise the reader may join
 * into a run. The detector reads a reply as a promise when either does.
 */
export function readsAsPromise(reply: Pick<RunReply, "text" | "user">): { rules: boolean; models: boolean } {
  const r = { entryId: "", ...reply };
  return { rules: RULES.candidate(r), models: MODELS.candidate(r) };
}

/**
 * One step of both readers. Tool calls, tool results and recovery anchors reset a run; user and host messages pass
 * through. Replies are classified lazily: only once two text-only replies sit in the window (memoised per text). Once
 * stalled, a run stays stalled until a reset or a reply that ends it (see `Reader.endsRun`).
 */
export function advanceRun(run: PromiseRun, event: RunEvent): PromiseRun {
  const rules = step(run.readers.rules, event, RULES);
  const models = step(run.readers.models, event, MODELS);
  if (rules === run.readers.rules && models === run.readers.models) return run;
  if (rules === EMPTY_READER && models === EMPTY_READER) return EMPTY_RUN;
  const shown =
    rules.stalled || (!models.stalled && rules.promiseEntryIds.length >= models.promiseEntryIds.length)
      ? rules
      : models;
  // Written out: one object shape for every run the fold keeps (a spread makes V8 build a new shape per source).
  return {
    recent: shown.recent,
    promiseEntryIds: shown.promiseEntryIds,
    texts: shown.texts,
    repliesSinceFirst: shown.repliesSinceFirst,
    stalled: shown.stalled,
    learnedScore: shown.learnedScore,
    user: shown.user,
    readers: { rules, models },
  };
}

/**
 * The hand-written rules alone, without the learned run scorer or the promise model's reading of an answered
 * question: what that scorer is trained against.
 */
export function advanceRunByRules(run: ReaderRun, event: RunEvent): ReaderRun {
  return step(run, event, RULES_ALONE);
}
const RULES_ALONE: Reader = { ...RULES, candidate: rulesPromise, endsRun: () => false, learned: false };

function step(run: ReaderRun, event: RunEvent, reader: Reader): ReaderRun {
  switch (event.type) {
    case "toolResult":
    case "anchor":
      return reset(run);
    case "user":
      if (event.text === undefined || event.text === run.user) return run;
      // The user wrote a new request (longer than any nudge), or answered the question the latest reply asked: the
      // run ends there. (A window of fewer than two replies holds no run to end, and its replies are not classified.)
      if (event.text.length > NEW_REQUEST_CHARS || (run.recent.length >= 2 && asksUser(run.recent.at(-1), reader))) {
        return { ...EMPTY_READER, user: event.text };
      }
      return { ...run, user: event.text };
    case "host":
      return run;
    case "assistant":
      if (UNCOUNTED_STOP_REASONS.has(event.stopReason)) return run;
      if (event.toolCalls > 0) return reset(run);
      return afterReply(run, { entryId: event.entryId, text: event.text, user: run.user }, reader);
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

function afterReply(run: ReaderRun, reply: RunReply, reader: Reader): ReaderRun {
  if (run.recent.length > 0 && reader.endsRun(reply)) return { ...EMPTY_READER, recent: [reply] };
  if (run.stalled) {
    const joins =
      reader.candidate(reply) &&
      run.texts.some((text, i) =>
        reader.similar(text, reply.text, i === run.texts.length - 1 ? { earlier: run.texts.slice(0, i) } : null),
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
  const recent = [...run.recent, reply].slice(-STALL_WINDOW);
  if (recent.length < 2) {
    return {
      recent,
      promiseEntryIds: EMPTY_READER.promiseEntryIds,
      texts: EMPTY_READER.texts,
      repliesSinceFirst: 0,
      stalled: false,
      learnedScore: null,
      user: null,
    };
  }
  const group = reader === MODELS ? withSupport(recent, largestGroup(recent, reader)) : largestGroup(recent, reader);
  if (group.length < STALL_RUN_LENGTH && reader.learned && recent.length >= STALL_RUN_LENGTH) {
    const learned = learnedRun(
      recent,
      recent.filter((r) => !answersAndDefers(r)),
    );
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

/**
 * Three replies of the window's `eligible` ones the learned scorer reads as one promise, when it scores them at its
 * threshold or above.
 */
function learnedRun(recent: RunReply[], eligible: RunReply[]): ReaderRun | null {
  if (eligible.length < STALL_RUN_LENGTH) return null;
  const { score, indices } = scoreRun(eligible.map((r) => ({ text: r.text, cls: classifyReply(r.text) })));
  if (indices === null || score < RUN_MODEL_THRESHOLD) return null;
  const members = indices.map((i) => eligible[i] as RunReply);
  return {
    recent,
    promiseEntryIds: members.map((r) => r.entryId),
    texts: members.map((r) => r.text),
    repliesSinceFirst: recent.length - recent.indexOf(members[0] as RunReply),
    stalled: true,
    learnedScore: score,
    user: null,
  };
}

/** A user message this long is a new request or new material, not a nudge (the longest nudge in the sets: 219). */
export const NEW_REQUEST_CHARS = 280;

/**
 * The reply's closing sentences ask the user something. Real replies often close a long report this way ("…**¿Sigo
 * con eso?**"), or ask and then say what they need ("How many runners may I use? Tell me if there is a limit."): the
 * turn is handed back, unless the promise model reads a promise closed by a tag question ("Saco el plan primero,
 * ¿vale?"), which a nudge answers without ending the run. Code is masked before: a `?` in it asks nothing.
 */
function asksInClosing(text: string): boolean {
  return /[?？]/u.test(closingOf(foldText(text)));
}

function asksUser(reply: RunReply | undefined, reader: Reader): boolean {
  return reply !== undefined && reader.asks(reply);
}

/**
 * The user's message the reply answers asks only whether anything is happening ("?", "hello?", "¿y?", "好了吗？": a
 * nudge that ends with a question mark). A promise given to that wait stands for the one before it, whatever its words.
 */
export function answersWait(reply: Pick<RunReply, "user">): boolean {
  return userShapeOf(reply.user ?? null).shape === "nudge?";
}

/** Whether the user's message the reply answers is a question (not a nudge such as "?" or "and?"). */
export function answersQuestion(reply: Pick<RunReply, "user">): boolean {
  const user = reply.user ?? null;
  return user !== null && userShapeOf(user).shape === "question";
}

/**
 * The reply answers the user's question with more than its promise: before its last sentence it says more than a
 * nudge's length. A reply of one sentence is that sentence alone, and "Sorry!" or "抱歉！" before it answers nothing.
 */
export function answersWithMore(reply: Pick<RunReply, "text" | "user">): boolean {
  return answersQuestion(reply) && leadWidth(reply.text) > NUDGE_CHARS;
}

/**
 * A group of two promises and, among the window's other replies, those the promise model reads at the support
 * threshold or above and the pair model as the same promise as both: a loop's weaker wording (terse, passive, hedged)
 * that the promise threshold alone leaves out. Not a reply the rules read otherwise, as a fact or a past report (nor,
 * past a filler's length, one that ended the run).
 */
function withSupport(recent: RunReply[], group: RunReply[]): RunReply[] {
  const support = supportThreshold();
  if (support === null || group.length !== STALL_RUN_LENGTH - 1) return group;
  const joins = (reply: RunReply) => {
    if (group.includes(reply) || MODELS.candidate(reply) || !saysEnough(reply.text) || answersWithMore(reply)) {
      return false;
    }
    const probability = promiseProbability(reply.text, reply.user ?? null);
    return (
      probability >= support &&
      !rulesVeto(reply.text, probability) &&
      !rulesReadFact(reply.text) &&
      group.every((member) => isSamePromise(member.text, reply.text))
    );
  };
  const supported = recent.filter(joins);
  return supported.length === 0 ? group : recent.filter((r) => group.includes(r) || supported.includes(r));
}

/** The rules read the reply, in a language they read, as a statement of fact or a past report. */
function rulesReadFact(text: string): boolean {
  const { kind, readable } = classifyReply(text);
  return readable && (kind === "factual" || kind === "past");
}

/** Connected groups of candidates under "similar" (a paraphrase may drift from the first wording); the largest, latest. */
function largestGroup(recent: readonly RunReply[], reader: Reader): RunReply[] {
  const candidates = recent.filter(reader.candidate);
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
        (reader.similar(a.text, b.text, j === i + 1 ? { earlier: candidates.slice(0, i).map((c) => c.text) } : null) ||
          (reader.joinsAfterWait && j === i + 1 && answersWait(b))) &&
        (!reader.actionsAgree || compatibleGroups(candidates, find, find(a), find(b)))
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

function reset(run: ReaderRun): ReaderRun {
  return run.recent.length === 0 && !run.stalled && run.user === null ? run : EMPTY_READER;
}
