import { hanWords } from "./han.js";
import { type Action, type Lexicon, lexicon, type VerbPhrase } from "./lexicon.js";

/** One announced action in a sentence: who opens it, the verb, and what it is about. */
export interface Clause {
  lead: string;
  verb: string;
  /** Null when the verb delivers an answer (explain, 总结) instead of acting. */
  action: Action | null;
  object: string[];
  /** Under a condition: "if it still fails, I'll look into why", 如果没有，我再查一下. */
  conditional: boolean;
  /** Told as done: 我检查了, "I was going to check". */
  past: boolean;
  /** A state report that opens like progress: "Testing is handled by Vitest", 正在运行，PID 是 4312. */
  status: boolean;
  start: number;
  end: number;
}

const HAN_UNIT = /^\p{Script=Han}$/u;
const isHan = (unit: string | undefined) => unit !== undefined && HAN_UNIT.test(unit);
const MAX_FILLERS = 8;

/** Every clause of one sentence (its units), left to right. */
export function findClauses(seq: readonly string[]): Clause[] {
  const lex = lexicon();
  const out: Clause[] = [];
  const opening = skipAcknowledgements(seq, lex);
  let i = 0;
  while (i < seq.length) {
    const clause = clauseAt(seq, i, i === opening, lex);
    if (clause) {
      out.push(clause);
      i = Math.max(clause.end, i + 1);
    } else {
      i++;
    }
  }
  return out;
}

function clauseAt(seq: readonly string[], at: number, atStart: boolean, lex: Lexicon): Clause | null {
  const lead = lex.leads.match(seq, at, lex.fillerUnits) ?? (atStart ? lex.sentenceLeads.match(seq, at, lex.fillerUnits) : null);
  if (lead) {
    const verb = verbAfter(seq, lead.end, lex);
    if (verb) return build(seq, at, lead.phrase.text, verb, lex, "lead");
  }
  const progressive = lex.progressiveLeads.match(seq, at, lex.fillerUnits);
  if (progressive && (atStart || progressiveInside(seq, at, progressive.phrase.text))) {
    const verb = verbAfter(seq, progressive.end, lex);
    if (verb && (isHan(verb.phrase.units[0]) || verb.gerund)) {
      return build(seq, at, progressive.phrase.text, verb, lex, "progressive");
    }
  }
  if (atStart) {
    const verb = lex.verbs.match(seq, at, lex.fillerUnits);
    if (verb && /ing$/.test(seq[at] ?? "") && verb.phrase.action !== null) {
      return build(seq, at, "", { ...verb, at, gerund: true }, lex, "gerund");
    }
  }
  const subject = lex.zhBareSubjects.match(seq, at, lex.fillerUnits);
  if (subject && !isHan(seq[at - 1])) {
    const verb = verbAfter(seq, subject.end, lex);
    if (verb && isHan(verb.phrase.units[0]) && volitional(seq, verb, lex)) {
      return build(seq, at, subject.phrase.text, verb, lex, "subject");
    }
  }
  return null;
}

const LATIN_ADVERB_LEADS = new Set(["still", "now", "currently", "just", "right now"]);
/** Inside a sentence: "I'm checking", 我正在检查; not "still", or 正在 after another subject (测试正在运行). */
function progressiveInside(seq: readonly string[], at: number, text: string): boolean {
  if (LATIN_ADVERB_LEADS.has(text)) return false;
  if (text.startsWith("我") || !isHan(text[0])) return true;
  const prior = seq[at - 1];
  return !isHan(prior) || prior === "我" || prior === "们";
}

interface VerbMatch {
  phrase: VerbPhrase;
  end: number;
  at: number;
  gerund: boolean;
}

/** The verb after a lead: fillers may sit between ("I'll go ahead and check"); the last verb in the chain wins. */
function verbAfter(seq: readonly string[], from: number, lex: Lexicon): VerbMatch | null {
  let found: VerbMatch | null = null;
  let i = from;
  for (let steps = 0; steps <= MAX_FILLERS && i < seq.length; steps++) {
    const verb = lex.verbs.match(seq, i, lex.fillerUnits);
    if (verb) {
      const gerund = /ing$/.test(seq[i] ?? "");
      // Han verbs and verbs that are not also fillers end the chain ("try to check" goes on to "check").
      const candidate = { phrase: verb.phrase, end: verb.end, at: i, gerund };
      found = candidate;
      const filler = lex.fillers.match(seq, i, lex.fillerUnits);
      if (!filler) return found;
      i = filler.end;
      continue;
    }
    const filler = lex.fillers.match(seq, i, lex.fillerUnits);
    if (!filler) return found;
    i = filler.end;
  }
  return found;
}

/** A bare 我 + verb is a promise only with a volitional mark: 我看看, 我查下, 我检查一下 (not 我看这是…). */
function volitional(seq: readonly string[], verb: VerbMatch, lex: Lexicon): boolean {
  const verbUnits = verb.phrase.units;
  if (verbUnits.length >= 2 && verbUnits[0] === verbUnits[1]) return true;
  if (/一下|下$|看$|一看|一眼|查$/.test(verb.phrase.text) && verbUnits.length >= 2) return true;
  const after = hanString(seq, verb.end, 3);
  return lex.zhVolitional.some((v) => after.startsWith(v));
}

function build(
  seq: readonly string[],
  start: number,
  lead: string,
  verb: VerbMatch,
  lex: Lexicon,
  kind: "lead" | "progressive" | "gerund" | "subject",
): Clause {
  const objectEnd = objectEndAt(seq, verb.end, lex);
  const object = objectTokens(seq.slice(verb.end, objectEnd), lex);
  if (verb.phrase.implied) object.push(verb.phrase.implied);
  const before = seq.slice(0, start);
  return {
    lead: lead || "(sentence opens with the verb)",
    verb: verb.phrase.text,
    action: verb.phrase.action,
    object: [...new Set(object)],
    conditional: conditionalBefore(before, lex) || conditionalAfter(seq, verb.end, objectEnd, lex),
    past: pastTense(seq, start, verb, lex),
    status: statusReport(seq, verb, kind, lex),
    start,
    end: verb.end,
  };
}

function skipAcknowledgements(seq: readonly string[], lex: Lexicon): number {
  let i = 0;
  for (;;) {
    if (seq[i] === "," || seq[i] === ":") {
      i++;
      continue;
    }
    const ack = lex.acknowledgements.match(seq, i, lex.fillerUnits);
    if (!ack || ack.end >= seq.length) return i;
    i = ack.end;
  }
}

/** The object runs to the end of the clause: a colon, a cut word ("with", "so", "before"), or the next clause. */
function objectEndAt(seq: readonly string[], from: number, lex: Lexicon): number {
  for (let i = from; i < seq.length; i++) {
    const unit = seq[i] ?? "";
    if (unit === ":") return i;
    if (unit === "," && (isHan(seq[i - 1]) || isHan(seq[i + 1]))) return i;
    if (i > from && lex.enObjectCuts.has(unit)) return i;
    if (i > from && (unit === "and" || unit === ",") && lex.verbs.match(seq, i + 1, lex.fillerUnits)) return i;
    if (i > from && (unit === "然" || unit === "再") && seq[i + 1] !== undefined && unit + seq[i + 1] === "然后") return i;
  }
  return seq.length;
}

/** Concepts, lemmas and identifiers of an object span, stop words and pronouns dropped. */
export function objectTokens(span: readonly string[], lex: Lexicon = lexicon()): string[] {
  const out: string[] = [];
  let han = "";
  const flush = () => {
    if (!han) return;
    for (const word of hanWords(han)) addHan(word, out, lex);
    han = "";
  };
  for (const unit of span) {
    if (isHan(unit)) {
      han += unit;
      continue;
    }
    flush();
    if (unit === "," || unit === ":") continue;
    addLatin(unit, out, lex);
  }
  flush();
  return out;
}

function addHan(word: string, out: string[], lex: Lexicon): void {
  if (lex.zhStopWords.has(word) || lex.pronouns.has(word)) return;
  const concept = lex.concepts.get(word);
  if (concept) {
    out.push(concept);
    return;
  }
  // Unknown compounds: keep the word and any concept inside it ("编译错误" -> compile, error).
  out.push(word);
  for (const [surface, c] of lex.concepts) if (surface.length >= 2 && surface !== word && word.includes(surface)) out.push(c);
}

const IDENTIFIER = /[./_@\d]|[a-z]-[a-z]/;

function addLatin(word: string, out: string[], lex: Lexicon): void {
  if (lex.enStopWords.has(word) || lex.pronouns.has(word)) return;
  if (IDENTIFIER.test(word)) {
    out.push(word);
    const base = word.split("/").at(-1)?.split(".")[0] ?? "";
    if (base && base !== word && base.length > 1) out.push(lex.concepts.get(base) ?? base);
    return;
  }
  const concept = lex.concepts.get(word);
  if (concept) {
    out.push(concept);
    return;
  }
  const lemma = lemmatize(word, lex);
  out.push(lex.concepts.get(lemma) ?? lemma);
}

export function lemmatize(word: string, lex: Lexicon = lexicon()): string {
  const known = lex.lemmas[word];
  if (known) return known;
  if (word.length <= 3) return word;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(word)) return word;
  if (/(?:sses|xes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

function conditionalBefore(before: readonly string[], lex: Lexicon): boolean {
  for (let i = 0; i < before.length; i++) if (lex.enConditionals.match(before, i, lex.fillerUnits)) return true;
  const han = before.filter(isHan).join("");
  return lex.zhConditionals.some((c) => han.includes(c));
}

function conditionalAfter(seq: readonly string[], verbEnd: number, objectEnd: number, lex: Lexicon): boolean {
  for (let i = verbEnd + 1; i <= Math.min(seq.length - 1, objectEnd + 1); i++) {
    if (lex.enTrailingConditionals.match(seq, i, lex.fillerUnits)) return true;
  }
  const tail = hanString(seq, verbEnd, seq.length);
  return /之后再|以后再|后再|的话/.test(tail);
}

function pastTense(seq: readonly string[], start: number, verb: VerbMatch, lex: Lexicon): boolean {
  const head = seq[verb.at] ?? "";
  if (isHan(head)) {
    const after = hanString(seq, verb.end, 2);
    if (after.startsWith("到底")) return false;
    if (lex.zhPastAfter.some((p) => after.startsWith(p))) return true;
    const before = hanString(seq, Math.max(0, start - 4), verb.at);
    return lex.zhPastBefore.some((p) => before.includes(p));
  }
  const prior = seq[start - 1];
  return prior !== undefined && lex.enPastBefore.has(prior);
}

/** A progress opener used for a state report: a finite verb follows, or 正在 + verb + comma and a fact. */
function statusReport(seq: readonly string[], verb: VerbMatch, kind: string, lex: Lexicon): boolean {
  if (kind === "gerund") return seq.slice(verb.end).some((u) => lex.enFiniteVerbs.has(u));
  if (kind !== "progressive" || !isHan(seq[verb.at])) return false;
  if (seq[verb.end] === "的" || seq[verb.end] === "中") return true;
  if (seq[verb.end] !== ",") return false;
  const rest = hanString(seq, verb.end + 1, seq.length);
  return !/稍等|稍候|请等|马上|很快/.test(rest);
}

function hanString(seq: readonly string[], from: number, to: number): string {
  let out = "";
  for (let i = from; i < Math.min(to, seq.length); i++) {
    const u = seq[i];
    if (!isHan(u)) break;
    out += u;
  }
  return out;
}
