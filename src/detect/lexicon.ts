import en from "./lexicons/en.json" with { type: "json" };
import zh from "./lexicons/zh.json" with { type: "json" };
import { units } from "./units.js";

/**
 * What a promise is about doing. `continue` is unspecific ("I'll proceed with the migration"); `act` is a verb the
 * lexicons do not know, after an unmistakable lead ("I'll regenerate the client", 我来新增 handler).
 */
export type Action = "inspect" | "run" | "search" | "fix" | "edit" | "install" | "continue" | "act";
export const ACTIONS: readonly Action[] = ["inspect", "run", "search", "fix", "edit", "install", "continue"];

/** A lexicon phrase as a unit sequence ("look at" -> [look, at]; "检查" -> [检, 查]); "~" stands for filler words. */
export interface Phrase {
  text: string;
  units: readonly string[];
}

export interface VerbPhrase extends Phrase {
  /** Null for verbs that deliver an answer instead of acting (explain, 总结). */
  action: Action | null;
  /** The object a verb carries by itself: "rebuild" is about the build. */
  implied: string | null;
}

/** Phrases indexed by their first unit, longest first, for prefix matching at a position. */
export class PhraseIndex<P extends Phrase> {
  private readonly byFirst = new Map<string, P[]>();

  constructor(phrases: readonly P[]) {
    for (const p of phrases) {
      const first = p.units[0];
      if (first === undefined) continue;
      const list = this.byFirst.get(first) ?? [];
      list.push(p);
      this.byFirst.set(first, list);
    }
    for (const list of this.byFirst.values()) list.sort((a, b) => b.units.length - a.units.length);
  }

  /** The longest phrase that starts at `at`, with the index after it; "~" skips up to three filler units. */
  match(seq: readonly string[], at: number, fillers: ReadonlySet<string>): { phrase: P; end: number } | null {
    const first = seq[at];
    if (first === undefined) return null;
    for (const phrase of this.byFirst.get(first) ?? []) {
      const end = matchUnits(phrase.units, seq, at, fillers);
      if (end !== -1) return { phrase, end };
    }
    return null;
  }
}

function matchUnits(pattern: readonly string[], seq: readonly string[], at: number, fillers: ReadonlySet<string>) {
  let i = at;
  for (const unit of pattern) {
    if (unit === "~") {
      for (let skipped = 0; skipped < 3 && fillers.has(seq[i] ?? ""); skipped++) i++;
      continue;
    }
    if (seq[i] !== unit) return -1;
    i++;
  }
  return i;
}

const nfkc = (text: string) => text.normalize("NFKC").toLowerCase();
/** Units of a lexicon phrase; "~" stays a unit of its own. */
const phraseUnits = (text: string) => text.split(" ").flatMap((w) => (w === "~" ? ["~"] : units(nfkc(w))));
const phrase = (text: string): Phrase => ({ text, units: phraseUnits(text) });

/** English verb forms: base, -s/-es, -ing (with a dropped e or a doubled consonant), -ed for tense checks. */
export function inflections(base: string): { present: string[]; past: string[] } {
  const y = base.endsWith("y") && !/[aeiou]y$/.test(base);
  const stem = base.endsWith("e") && !base.endsWith("ee") ? base.slice(0, -1) : base;
  const last = base.at(-1) ?? "";
  const present = [base, y ? `${base.slice(0, -1)}ies` : /(?:s|sh|ch|x|z|o)$/.test(base) ? `${base}es` : `${base}s`];
  present.push(`${stem}ing`, `${base}${last}ing`);
  const past = [y ? `${base.slice(0, -1)}ied` : `${stem}ed`, `${base}${last}ed`];
  return { present: [...new Set(present)], past: [...new Set(past)] };
}

function verbPhrases(
  table: Record<string, readonly string[]>,
  deliverables: readonly string[],
  implied: Record<string, string>,
  inflect: boolean,
): VerbPhrase[] {
  const out: VerbPhrase[] = [];
  const add = (text: string, action: Action | null) => {
    const [head = "", ...rest] = phraseUnits(text);
    const heads = inflect && /^[a-z]/.test(head) ? inflections(head).present : [head];
    for (const h of heads)
      out.push({
        text,
        units: [h, ...rest],
        action,
        implied: Object.hasOwn(implied, text) ? (implied[text] ?? null) : null,
      });
  };
  for (const action of ACTIONS) for (const text of table[action] ?? []) add(text, action);
  for (const text of deliverables) add(text, null);
  return out;
}

function pastForms(table: Record<string, readonly string[]>): Set<string> {
  const out = new Set<string>(Object.keys(en.lemmas).filter((k) => en.lemmas[k as keyof typeof en.lemmas] !== k));
  for (const action of ACTIONS) {
    for (const text of table[action] ?? []) {
      const head = units(text)[0];
      if (head && /^[a-z]/.test(head)) for (const f of inflections(head).past) out.add(f);
    }
  }
  return out;
}

function conceptMap(concepts: Record<string, readonly string[]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [concept, surfaces] of Object.entries(concepts)) for (const s of surfaces) out.set(s, concept);
  return out;
}

/** The compiled lexicons, built once on first use. */
export interface Lexicon {
  leads: PhraseIndex<Phrase>;
  sentenceLeads: PhraseIndex<Phrase>;
  /** Sentence openers that lead only a sentence ending in a colon: 先看这两点：(not 先运行 X，再运行 Y, an instruction). */
  colonSentenceLeads: PhraseIndex<Phrase>;
  progressiveLeads: PhraseIndex<Phrase>;
  verbs: PhraseIndex<VerbPhrase>;
  fillers: PhraseIndex<Phrase>;
  /** Single-unit fillers, for "~" inside verb phrases. */
  fillerUnits: ReadonlySet<string>;
  enPast: ReadonlySet<string>;
  enConditionals: PhraseIndex<Phrase>;
  enTrailingConditionals: PhraseIndex<Phrase>;
  enPastBefore: ReadonlySet<string>;
  enFiniteVerbs: ReadonlySet<string>;
  enObjectCuts: ReadonlySet<string>;
  /** Verbs outside the action lexicon that make "to" a purpose: "to pick the right spot". */
  enPurposeVerbs: ReadonlySet<string>;
  /** "From now on I will:", 以后我会： a list of habits, not next steps. */
  habitualMarkers: readonly string[];
  handBacks: readonly string[];
  tagQuestions: readonly string[];
  zhTagQuestions: readonly string[];
  refusals: readonly string[];
  acknowledgements: PhraseIndex<Phrase>;
  enStopWords: ReadonlySet<string>;
  zhStopWords: ReadonlySet<string>;
  pronouns: ReadonlySet<string>;
  generic: ReadonlySet<string>;
  concepts: ReadonlyMap<string, string>;
  /** Han surfaces of concepts, longest first, for substring matching. */
  hanConcepts: readonly (readonly [string, string])[];
  lemmas: ReadonlyMap<string, string>;
  zhBareSubjects: PhraseIndex<Phrase>;
  /** Han words that may stand right before a bare 我: 那我, 好我. */
  zhSubjectOpeners: ReadonlySet<string>;
  zhVolitional: readonly string[];
  zhConditionals: readonly string[];
  zhPastAfter: readonly string[];
  zhPastBefore: readonly string[];
  blockerCodes: ReadonlySet<string>;
  hardBlockerEndings: readonly string[];
  softBlockerEndings: readonly string[];
  blockedPrefixes: readonly string[];
}

let compiled: Lexicon | null = null;

export function lexicon(): Lexicon {
  compiled ??= compile();
  return compiled;
}

function compile(): Lexicon {
  const fillers = [...en.fillers, ...zh.fillers];
  const concepts = conceptMap(merge(en.concepts, zh.concepts));
  return {
    leads: new PhraseIndex([...en.leads, ...zh.leads].map(phrase)),
    sentenceLeads: new PhraseIndex([...en.sentenceLeads, ...zh.sentenceLeads].map(phrase)),
    colonSentenceLeads: new PhraseIndex(zh.colonSentenceLeads.map(phrase)),
    zhSubjectOpeners: new Set(zh.subjectOpeners),
    progressiveLeads: new PhraseIndex([...en.progressiveLeads, ...zh.progressiveLeads].map(phrase)),
    verbs: new PhraseIndex([
      ...verbPhrases(en.actions, en.deliverableVerbs, en.impliedObjects, true),
      ...verbPhrases(zh.actions, zh.deliverableVerbs, zh.impliedObjects, false),
    ]),
    fillers: new PhraseIndex(fillers.map(phrase)),
    fillerUnits: new Set(fillers.filter((f) => units(f).length === 1)),
    enPast: pastForms(en.actions),
    enConditionals: new PhraseIndex(en.conditionals.map(phrase)),
    enTrailingConditionals: new PhraseIndex(en.trailingConditionals.map(phrase)),
    enPastBefore: new Set(en.pastBefore),
    enFiniteVerbs: new Set(en.finiteVerbs),
    enObjectCuts: new Set(en.objectCuts),
    enPurposeVerbs: new Set(en.purposeVerbs),
    habitualMarkers: [...en.habitualMarkers, ...zh.habitualMarkers],
    handBacks: [...en.handBacks, ...zh.handBacks],
    tagQuestions: [...en.tagQuestions, ...zh.tagQuestions],
    zhTagQuestions: zh.tagQuestions.filter((t) => /\p{Script=Han}/u.test(t)),
    refusals: [...en.refusals, ...zh.refusals],
    acknowledgements: new PhraseIndex([...en.acknowledgements, ...zh.acknowledgements].map(phrase)),
    enStopWords: new Set(en.stopWords),
    zhStopWords: new Set(zh.stopWords),
    pronouns: new Set([...en.pronouns, ...zh.pronouns]),
    generic: new Set([...en.generic, ...zh.generic]),
    concepts,
    hanConcepts: [...concepts].filter(([s]) => /^\p{Script=Han}+$/u.test(s)).sort((a, b) => b[0].length - a[0].length),
    lemmas: new Map(Object.entries(en.lemmas)),
    zhBareSubjects: new PhraseIndex(zh.bareSubjects.map(phrase)),
    zhVolitional: zh.volitionalAfterVerb,
    zhConditionals: zh.conditionals,
    zhPastAfter: zh.pastAfterVerb,
    zhPastBefore: zh.pastBefore,
    blockerCodes: new Set(en.blockerCodes),
    hardBlockerEndings: en.hardBlockerEndings,
    softBlockerEndings: en.softBlockerEndings,
    blockedPrefixes: [...en.blockedPrefixes, ...zh.blockedPrefixes],
  };
}

function merge(a: Record<string, string[]>, b: Record<string, string[]>): Record<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of [...Object.entries(a), ...Object.entries(b)]) out.set(k, [...(out.get(k) ?? []), ...v]);
  return Object.fromEntries(out);
}
