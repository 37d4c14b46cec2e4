import {
  advanceRun,
  answersAndDefers,
  answersQuestion,
  answersWait,
  EMPTY_RUN,
  FILLER_WIDTH,
  handsTurnBack,
  modelDenies,
  NEW_REQUEST_CHARS,
  type PromiseRun,
  pastFiller,
  type RunEvent,
  readsAsPromise,
  rulesVeto,
  saysEnough,
  UNCOUNTED_STOP_REASONS,
} from "./promise-run.js";
import { classifyReply } from "./reply-classifier.js";
import { userShapeOf } from "./reply-features.js";
import { classSimilarity } from "./similarity.js";
import {
  confirmThreshold,
  endsTurn,
  explainPromise,
  overruleThreshold,
  promiseProbability,
  promiseThreshold,
  samePromiseProbability,
  supportThreshold,
  turnProbability,
  turnThreshold,
} from "./stall-model.js";

/** One step of a leaf's recent path, as the detector saw it. */
export interface ExplainedStep {
  entryId: string | null;
  /** A reply's label (promise, deliverable, question ...), or what else the step is (tool call, user, anchor ...). */
  label: string;
  reason: string;
  /** The promised actions and their objects, for promises. */
  intents: { action: string; object: string[] }[];
  /** The promise model's probability, unrounded (null when the step is not a reply the models read). */
  probability: number | null;
  /** Best similarity to a member of the run at the leaf (null when there is no run or it is not a reply). */
  similarity: number | null;
  inRun: boolean;
  /** The reply's first line, shortened. */
  excerpt: string;
}

/** Steps shown: the assistant replies of the recent path, from a few before the last tool activity on. */
export const EXPLAIN_REPLIES = 10;

/** The last steps of a path (root first) with each reply's label, intents and similarity to the leaf's run. */
export function explainPath(events: readonly RunEvent[]): { run: PromiseRun; steps: ExplainedStep[] } {
  const run = events.reduce(advanceRun, EMPTY_RUN);
  let first = events.length;
  for (let seen = 0; first > 0 && seen < EXPLAIN_REPLIES; ) {
    first--;
    if (events[first]?.type === "assistant") seen++;
  }
  const members = new Map(run.promiseEntryIds.map((id, i) => [id, run.texts[i] ?? ""]));
  // The run reported is one reader's: each reply is explained as that reader read it (with no run, a reply the rules
  // find nothing in, or in a language they do not read, is explained by the models).
  const byModels = run.promiseEntryIds.length === 0 ? null : run.promiseEntryIds !== run.readers.rules.promiseEntryIds;
  // The user's message each reply answers, as the run saw it (none past another reply or a tool result).
  const answers: (string | null)[] = [];
  let user: string | null = null;
  for (const event of events) {
    answers.push(event.type === "assistant" ? user : null);
    if (event.type === "user") user = event.text ?? null;
    else if (event.type === "toolResult" || event.type === "anchor") user = null;
    else if (event.type === "assistant" && !UNCOUNTED_STOP_REASONS.has(event.stopReason)) user = null;
  }
  return {
    run,
    steps: events.slice(first).map((event, i) => explainStep(event, members, answers[first + i] ?? null, byModels)),
  };
}

/**
 * `members`: the run's entry ids and texts; a member's similarity is to the other members. `user`: the user's
 * message the reply answers.
 */
function explainStep(
  event: RunEvent,
  members: ReadonlyMap<string, string>,
  user: string | null,
  byModels: boolean | null,
): ExplainedStep {
  const base = { entryId: null, intents: [], probability: null, similarity: null, inRun: false, excerpt: "" };
  switch (event.type) {
    case "toolResult":
      return { ...base, label: "tool result", reason: "resets the run" };
    case "anchor":
      return { ...base, label: "recovery marker", reason: "resets the run" };
    case "user":
      return { ...base, label: "user", reason: userReason(event.text) };
    case "host":
      return { ...base, label: "host message", reason: "passes through" };
    case "assistant": {
      const excerpt = shorten(event.text);
      const id = { entryId: event.entryId, excerpt };
      if (UNCOUNTED_STOP_REASONS.has(event.stopReason)) {
        return { ...base, ...id, label: `ignored (${event.stopReason})`, reason: "neither counts nor resets" };
      }
      if (event.toolCalls > 0) return { ...base, ...id, label: "tool call", reason: "resets the run" };
      const c = classifyReply(event.text);
      if (byModels ?? (c.kind === "unknown-language" || c.kind === "factual" || !c.readable)) {
        return explainByModel(event.entryId, event.text, user, members, { ...base, ...id });
      }
      const model = explainPromise(event.text, user);
      let similarity: number | null = null;
      const ids = [...members.keys()];
      const at = ids.indexOf(event.entryId);
      for (const [memberId, text] of members) {
        if (memberId === event.entryId) continue;
        // Consecutive members of the run are compared as the run compares them (a renamed object may join).
        const other = ids.indexOf(memberId);
        const adjacent =
          at !== -1 && Math.abs(other - at) === 1
            ? { earlier: ids.slice(0, Math.min(other, at)).map((m) => members.get(m) ?? "") }
            : null;
        const s = classSimilarity(c, classifyReply(text), event.text, text, adjacent);
        similarity = Math.max(similarity ?? 0, s);
      }
      const defers = c.kind === "promise" && answersAndDefers({ text: event.text, user });
      const handsBack = c.kind === "promise" && !defers && handsTurnBack({ text: event.text, user });
      const denied = c.kind === "promise" && !defers && !handsBack && modelDenies(event);
      const ends = !defers && (c.kind !== "promise" || denied) && pastFiller(event);
      const note = `${defers ? ANSWER_NOTE : handsBack ? handBackNote(event.text, user) : denied ? deniedNote(event.text) : ""}${ends ? ENDS_NOTE : ""}`;
      return {
        ...base,
        ...id,
        label: defers ? "answer" : handsBack ? "hands back" : denied ? "not a promise" : c.kind,
        reason: `${c.reason}; trained model: promise probability ${model.probability.toFixed(2)}${vetoNote(event.text, model.probability)}${note}`,
        intents: c.intents.map((i) => ({ action: i.action, object: i.object })),
        probability: model.probability,
        similarity,
        inRun: members.has(event.entryId),
      };
    }
    default:
      return exhaustive(event);
  }
}

/** A reply the trained models read: their probability, the features that weighed most, and the pair model's. */
function explainByModel(
  entryId: string,
  text: string,
  user: string | null,
  members: ReadonlyMap<string, string>,
  base: Omit<ExplainedStep, "label" | "reason">,
): ExplainedStep {
  const { probability, top } = explainPromise(text, user);
  const threshold = promiseThreshold();
  const promise = probability >= threshold;
  let similarity: number | null = null;
  for (const [memberId, other] of members) {
    if (memberId !== entryId) similarity = Math.max(similarity ?? 0, samePromiseProbability(text, other));
  }
  // A promise of one sentence answers nothing: it counts after a question too.
  const filler = promise && !saysEnough(text);
  const counted = readsAsPromise({ text, user }).models;
  const byRules = counted && !promise;
  const denied = !counted && classifyReply(text).kind === "promise" && modelDenies({ text });
  // Only the support join takes into the run a reply the promise model reads below the threshold.
  const supports = !counted && members.has(entryId);
  const answer = !counted && !supports && answersQuestion({ user });
  const turn = turnThreshold();
  const handsBack = !counted && !answer && !supports && turn !== null && endsTurn(text, user);
  const turnNote = supports
    ? `; at or above the support threshold ${supportThreshold()}, and the same promise as both of the run's promises by the pair model: joins them as their weaker wording`
    : answer
      ? "; answers the user's question: a deliverable, ends the run"
      : handsBack
        ? `; hands the turn back (probability ${turnProbability(text, user).toFixed(2)}, at or above ${turn}): ends the run`
        : !counted && pastFiller({ text })
          ? ENDS_NOTE
          : filler
            ? "; too short to promise an action on something: a filler"
            : "";
  return {
    ...base,
    label: supports
      ? "supporting promise"
      : answer
        ? "answer"
        : counted
          ? "promise"
          : handsBack
            ? "hands back"
            : "not a promise",
    reason: `${byRules || denied ? "the rules read a promise; " : ""}trained model: promise probability ${probability.toFixed(2)} (${promise ? "at or above" : "below"} ${threshold})${vetoNote(text, probability)}${denied ? deniedNote(text) : ""}; weighed most: ${top.join(", ")}${turnNote}${counted && members.has(entryId) && answersWait({ user }) ? WAIT_NOTE : ""}`,
    probability,
    similarity,
    inRun: members.has(entryId),
  };
}

/** Why a promise after a bare "?" joins the one before it. */
const WAIT_NOTE =
  "; answers a user who asked only whether anything is happening: the same promise as the one before it";

/** Why a promise the rules read is none: the turn model reads a hand-back more surely. */
function handBackNote(text: string, user: string | null): string {
  return `; the turn model reads it as handing the turn back (probability ${turnProbability(text, user).toFixed(2)}), more surely than a promise: ends the run`;
}

/** Why a promise the rules read is none: the promise model, reading the reply alone, is below `confirm`. */
function deniedNote(text: string): string {
  const alone = promiseProbability(text, null).toFixed(2);
  return `; read alone, the promise model gives ${alone}, below ${confirmThreshold()}: its reading stands, no promise`;
}

/** Why a reply that is no promise ends the run: a filler between a loop's promises is short. */
const ENDS_NOTE = `; promises nothing at more than a filler's length (${FILLER_WIDTH}): ends the run`;

/** Why a promise the rules read is not counted after the user's question: the promise model reads the question. */
const ANSWER_NOTE =
  "; answers the user's question, and the promise model, which reads the question, reads no promise: a deliverable, which ends the run";

/** Why a reply the promise model reads as a promise is none: the rules' reading stands where they read the language. */
function vetoNote(text: string, probability: number): string {
  return probability >= promiseThreshold() && rulesVeto(text, probability)
    ? ` (at or above ${promiseThreshold()}, but below ${overruleThreshold()} the models do not overrule the rules' reading in a language the rules read)`
    : "";
}

function userReason(text: string | undefined): string {
  const shape = userShapeOf(text ?? null).shape;
  if (text !== undefined && text.length > NEW_REQUEST_CHARS) return "a new request: ends the run";
  if (shape === "question") return "asks a question: a reply that answers it and promises nothing ends the run";
  return shape === "nudge" || shape === "nudge?" ? "a nudge: passes through" : "passes through";
}

function shorten(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 72 ? `${line.slice(0, 71)}…` : line;
}

function exhaustive(event: never): never {
  throw new Error(`unknown run event ${JSON.stringify(event)}`);
}
