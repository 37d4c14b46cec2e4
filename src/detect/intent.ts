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
  /** The object points back ("fix that reference", 改这个): it is the one named before. */
  anaphoric: boolean;
  start: number;
  end: number;
}

const HAN_UNIT = /^\p{Script=Han}$/u;
const isHan = (unit: string | undefined) => unit !== undefined && HAN_UNIT.test(unit);
/** The Han characters of some units, joined: what the Chinese rules read. */
const hanOf = (units: readonly string[]) => units.filter(isHan).join("");
const BREAKS = new Set([",", ":", "—", "–"]);
const MAX_FILLERS = 8;
/** Han words that open a phrase before the verb: 我把 X 改成, 我来在 X 加上, 我去日志里看看. */
const HAN_PREPOSITIONS = new Set([
  "把",
  "将",
  "在",
  "喺",
  "给",
  "从",
  "对",
  "往",
  "向",
  "去",
  "到",
  "跟",
  "为",
  "帮",
  "用",
  "按",
  "照",
  "让",
  "使",
]);
/** 把 hot 打开: switching a thing on or off is a change to it. */
const DISPOSAL = new Set(["把", "将"]);
const TWO_CHAR_PREPOSITIONS = new Set(["针对", "对于", "关于", "围绕"]);
const TOGGLES = new Set(["打开", "开启", "开", "关掉", "关闭", "关"]);
/** 我会让 main.go 读 LOG_LEVEL: making a thing do something is a change to it. */
const CAUSATIVES = new Set(["让", "使"]);
/** Han words that close a place phrase before the verb: 我去日志里看看, 我去 NewLRU 里 init 一下. */
const HAN_PLACE_ENDS = new Set(["里", "中", "上", "下", "内"]);
const MAX_PHRASE = 14;
const CHAIN = new Set(["and", "then", "to", "再", "然后", "并", "并且", "来", "顺便", "去"]);

/** Every clause of one sentence (its units), left to right; verbs chained to a clause share its lead and object. */
export function findClauses(seq: readonly string[]): Clause[] {
  const lex = lexicon();
  const out: Clause[] = [];
  const opening = skipAcknowledgements(seq, 0, lex);
  let i = 0;
  while (i < seq.length) {
    const clauseStart = i === opening || (i > 0 && BREAKS.has(seq[i - 1] ?? ""));
    const clause = clauseAt(seq, i, clauseStart, lex);
    if (!clause) {
      i++;
      continue;
    }
    out.push(clause);
    let last = clause;
    for (let next = chained(seq, last, lex); next; next = chained(seq, last, lex)) {
      out.push(next);
      last = next;
    }
    i = Math.max(last.end, i + 1);
  }
  return out;
}

function clauseAt(seq: readonly string[], at: number, clauseStart: boolean, lex: Lexicon): Clause | null {
  const lead =
    lex.leads.match(seq, at, lex.fillerUnits) ??
    (clauseStart ? lex.sentenceLeads.match(seq, at, lex.fillerUnits) : null) ??
    (clauseStart && seq.at(-1) === ":" ? lex.colonSentenceLeads.match(seq, at, lex.fillerUnits) : null);
  if (lead) {
    const verb =
      verbAfter(seq, lead.end, lex) ??
      hanPhraseVerb(seq, lead.end, lex) ??
      // 我将 before hook 改成 async: 将 is the preposition, not "will".
      (lead.phrase.text.endsWith("将") ? hanPhraseVerb(seq, lead.end - 1, lex, true) : null) ??
      (STRONG_LEADS.has(lead.phrase.text) && seq.at(-1) !== ":"
        ? unknownVerb(seq, lead.end, lex, lead.phrase.text)
        : null);
    if (verb) return build(seq, at, lead.phrase.text, verb, lex, "lead");
  }
  // 再触发一次这个 spec 看看, 重新跑一遍试试: 再/重新/先 open an own trial when the sentence says it will look at the outcome.
  if (clauseStart && TRIAL_LEADS.has(seq[at] ?? "")) {
    const verb = verbAfter(seq, at, lex) ?? verbAfter(seq, at + 1, lex) ?? hanPhraseVerb(seq, at + 1, lex);
    const rest = hanOf(seq.slice(verb?.end ?? seq.length));
    const tagged =
      lex.zhTagQuestions.some((t) => rest.endsWith(t)) || /^(?:right|ok|okay|alright)$/.test(seq.at(-1) ?? "");
    if (
      verb &&
      verb.phrase.action !== null &&
      (/看|试试|再说|确认|验证/.test(rest) || tagged || afterAcknowledgement(seq, at, lex))
    ) {
      return build(seq, at, seq[at] ?? "", verb, lex, "lead");
    }
  }
  // 好的，查询 orders 表已有的索引。/ 删除 duplicate 的 applyCoupon now，马上。: after an acknowledgement, or with 马上/now
  // in a Chinese sentence, an opening action verb is the reply's own step (an instruction says 即可 or addresses 你).
  if (clauseStart && ownStep(seq, at, lex)) {
    const verb = lex.verbs.match(seq, at, lex.fillerUnits);
    if (
      verb &&
      verb.phrase.action !== null &&
      (!isHan(seq[at]) || verb.end - at >= 2) &&
      !isConcept(verb.phrase.text, lex)
    ) {
      return build(seq, at, "(opens with the verb)", { ...verb, at, gerund: false, phraseObject: [] }, lex, "lead");
    }
  }
  // "开始第一步：读 X" / "Next step: read X": the verb after the colon takes the sentence's lead.
  if (clauseStart && seq[at - 1] === ":") {
    const opening = skipAcknowledgements(seq, 0, lex);
    const head =
      lex.leads.match(seq, opening, lex.fillerUnits) ?? lex.sentenceLeads.match(seq, opening, lex.fillerUnits);
    const verb = head && head.end < at ? lex.verbs.match(seq, at, lex.fillerUnits) : null;
    if (head && verb && verb.phrase.action !== null) {
      return build(seq, at, head.phrase.text, { ...verb, at, gerund: false, phraseObject: [] }, lex, "lead");
    }
    // 继续：为 billing.py 补充单元测试.
    const phrased = head && head.end < at && isHan(seq[at]) ? hanPhraseVerb(seq, at, lex) : null;
    if (head && phrased && phrased.phrase.action !== null)
      return build(seq, at, head.phrase.text, phrased, lex, "lead");
  }
  const progressive = lex.progressiveLeads.match(seq, at, lex.fillerUnits);
  if (progressive && (clauseStart || progressiveInside(seq, at, progressive.phrase.text))) {
    const verb = verbAfter(seq, progressive.end, lex) ?? hanPhraseVerb(seq, progressive.end, lex);
    // 正在 retry main 上的 pipeline: an English verb after a Chinese progressive.
    const latinAfterHan = isHan(progressive.phrase.text[0]) && verb !== null && !isHan(verb.phrase.units[0]);
    if (verb && (isHan(verb.phrase.units[0]) || verb.gerund || latinAfterHan) && !timeClause(seq, verb.end)) {
      return build(seq, at, progressive.phrase.text, verb, lex, "progressive");
    }
  }
  if (clauseStart) {
    const verb = lex.verbs.match(seq, at, lex.fillerUnits) ?? unknownGerund(seq, at, lex);
    if (verb && /ing$/.test(seq[at] ?? "") && verb.phrase.action !== null) {
      return build(seq, at, "", { ...verb, at, gerund: true, phraseObject: [] }, lex, "gerund");
    }
    // "Run:" / 执行： right before the command it shows.
    if (verb && verb.phrase.action === "run" && seq.at(-1) === ":" && verb.end >= seq.length - 3) {
      return build(seq, at, "", { ...verb, at, gerund: false, phraseObject: [] }, lex, "lead");
    }
  }
  const subject = lex.zhBareSubjects.match(seq, at, lex.fillerUnits);
  if (subject && (!isHan(seq[at - 1]) || opensSubject(seq, at, lex))) {
    const verb = verbAfter(seq, subject.end, lex) ?? hanPhraseVerb(seq, subject.end, lex);
    // An English verb after a bare 我 needs the mark right after it: 我 rerun 一下 pipeline.
    // …or a tag asking for agreement at the end: 我 restart 個 consumer 先，得唔得？
    const tail = hanOf(seq.slice(verb?.end ?? seq.length));
    const latinMarked =
      verb !== null &&
      (/^(?:一下|下|一遍|一次|一[轮輪]|紧|埋|返|吓|个)/.test(hanString(seq, verb.end, verb.end + 2)) ||
        lex.zhTagQuestions.some((t) => tail.endsWith(t)));
    if (
      verb &&
      (isHan(verb.phrase.units[0]) || latinMarked) &&
      (volitional(seq, subject.end, verb, lex) || pastTense(seq, at, verb, lex))
    ) {
      // 我 describe 一下这个 pod: an English word for explaining, used as a command's name.
      const named =
        verb.phrase.action === null && latinMarked
          ? { ...verb, phrase: { ...verb.phrase, action: "inspect" as const } }
          : verb;
      return build(seq, at, subject.phrase.text, named, lex, "subject");
    }
  }
  return null;
}

/** The Han word right before a bare 我 lets it open a clause: 那我, 所以我, 然后我 (openers of one or two characters). */
function opensSubject(seq: readonly string[], at: number, lex: Lexicon): boolean {
  const one = seq[at - 1] ?? "";
  return lex.zhSubjectOpeners.has(one) || lex.zhSubjectOpeners.has(`${seq[at - 2] ?? ""}${one}`);
}

/** 在修改 Info.plist 之前，…: the clause up to the comma tells when, the promise follows it. */
function timeClause(seq: readonly string[], from: number): boolean {
  let end = from;
  while (end < seq.length && !BREAKS.has(seq[end] ?? "")) end++;
  return /(?:之前|以前|之后|以后|的时候|时)$/.test(hanOf(seq.slice(from, end)));
}

const TRIAL_LEADS = new Set(["再", "先", "重", "那"]);
/** "checking where X ends up": an embedded question has its own verb. */
const WH_CLAUSE = new Set(["if", "whether", "where", "how", "what", "which", "why", "who", "when"]);
const INSTRUCTION_WORDS = /即可|就行|就好|你|您|请/u;

/** The clause opens the sentence right after an acknowledgement (好的，…). */
function afterAcknowledgement(seq: readonly string[], at: number, lex: Lexicon): boolean {
  return at > 0 && skipAcknowledgements(seq, 0, lex) === at;
}

function ownStep(seq: readonly string[], at: number, lex: Lexicon): boolean {
  const han = hanOf(seq);
  if (han.length === 0 || INSTRUCTION_WORDS.test(han)) return false;
  // 查下索引。: a short sentence of a verb with 下/一下 and its object.
  const marked = seq.length <= 8 && /^.{1,3}(?:一下|下)/u.test(hanString(seq, at, at + 5));
  return (
    (afterAcknowledgement(seq, at, lex) && isHan(seq[at])) || /马上|现在/.test(han) || seq.at(-1) === "now" || marked
  );
}

/** Leads that announce an own next action whatever verb follows. */
const STRONG_LEADS = new Set([
  "let me",
  "i'll",
  "i will",
  "i'm going to",
  "i am going to",
  "i'm about to",
  "i'll go ahead and",
  "i'm going to go ahead and",
  "i'm just going to",
  "我来",
  "我会",
  "让我",
  "我这就",
  "我马上",
  "我现在",
  "我立刻",
  "我去",
  "等我",
  "我先",
  "我要",
  "我准备",
  "我打算",
  "接下来我",
  "going to",
]);
/** Verbs after a strong lead that do not act on the work: "I'll be brief", "let me know", "I'll keep it short". */
const NOT_ACTING = new Set(
  "be have keep leave wait need know say note mention remember stop admit answer respond reply assume guess give take let get put make do try see hope say tell ask also just now then not never still first".split(
    " ",
  ),
);
const DETERMINERS = new Set([
  "the",
  "a",
  "an",
  "my",
  "our",
  "its",
  "their",
  "this",
  "that",
  "these",
  "those",
  "it",
  "them",
  "all",
]);

const unknownPhrase = (text: string, unitsOf: readonly string[]): VerbPhrase => ({
  text,
  units: unitsOf,
  action: "act",
  implied: null,
});

/** Chinese leads strong enough for an unknown verb (我会 also makes habits and predictions: 我会注意). */
const HAN_STRONG_LEADS = new Set(["我来", "让我", "我这就", "我先"]);
const HAN_NOT_ACTING = /^(?:可以|能够|应该|按照|根据|注意|会|需要|还是|已经|一直|也|都)/u;

/**
 * A verb the lexicons do not know, right after a strong lead: an English word, or the first Chinese word. Not before
 * a colon: "Let me expand the cache part:" introduces what the reply delivers.
 */
function unknownVerb(seq: readonly string[], from: number, lex: Lexicon, lead: string): VerbMatch | null {
  let i = from;
  while (i < seq.length && lex.fillers.match(seq, i, lex.fillerUnits)) i++;
  const word = seq[i] ?? "";
  if (/^[a-z][a-z-]{2,}$/.test(word)) {
    if (NOT_ACTING.has(word) || lex.enStopWords.has(word) || lex.pronouns.has(word) || /ed$/.test(word)) return null;
    return { phrase: unknownPhrase(word, [word]), end: i + 1, at: i, gerund: false, phraseObject: [] };
  }
  if (!isHan(word) || !HAN_STRONG_LEADS.has(lead)) return null;
  const head = hanWords(hanString(seq, i, i + 8))[0] ?? "";
  const size = [...head].length;
  if (size < 2 || lex.zhStopWords.has(head) || lex.concepts.has(head) || HAN_NOT_ACTING.test(head)) return null;
  return { phrase: unknownPhrase(head, [...head]), end: i + size, at: i, gerund: false, phraseObject: [] };
}

/** "Regenerating the client ...": a sentence that opens with an -ing word the lexicons do not know and its object. */
function unknownGerund(seq: readonly string[], at: number, lex: Lexicon): { phrase: VerbPhrase; end: number } | null {
  const word = seq[at] ?? "";
  if (!/^[a-z]{3,}ing$/.test(word) || !DETERMINERS.has(seq[at + 1] ?? "") || lex.concepts.has(word)) return null;
  return { phrase: unknownPhrase(word, [word]), end: at + 1 };
}

const LATIN_ADVERB_LEADS = new Set(["still", "now", "currently", "just", "right now"]);

/** Inside a sentence: "I'm checking", 我正在检查; not "still", or 正在 after another subject (测试正在运行). */
function progressiveInside(seq: readonly string[], at: number, text: string): boolean {
  if (LATIN_ADVERB_LEADS.has(text)) return false;
  if (text.startsWith("我") || !isHan(text[0])) return true;
  if (text === "在") return false;
  const prior = seq[at - 1];
  return !isHan(prior) || prior === "我" || prior === "们";
}

interface VerbMatch {
  phrase: VerbPhrase;
  end: number;
  at: number;
  gerund: boolean;
  /** Units between the lead and the verb that name the object (我把 X 改成 Y). */
  phraseObject: readonly string[];
  fillersSkipped?: boolean;
}

/** The verb after a lead: fillers may sit between ("I'll go ahead and check"); the last verb in the chain wins. */
function verbAfter(seq: readonly string[], from: number, lex: Lexicon): VerbMatch | null {
  let found: VerbMatch | null = null;
  let i = from;
  for (let steps = 0; steps <= MAX_FILLERS && i < seq.length; steps++) {
    const verb = lex.verbs.match(seq, i, lex.fillerUnits);
    const filler = lex.fillers.match(seq, i, lex.fillerUnits);
    if (verb) {
      const gerund = /ing$/.test(seq[i] ?? "");
      found = { phrase: verb.phrase, end: verb.end, at: i, gerund, phraseObject: [], fillersSkipped: i > from };
      // A verb that is also a filler ("try to check", 继续检查) hands over to a verb after it; one that reaches past
      // the filler (重新读一下 against 重新) is the verb.
      if (!filler || verb.end > filler.end) return found;
    }
    if (!filler) return found;
    i = filler.end;
  }
  return found;
}

/**
 * 把/在/给 + a short phrase + verb: the phrase is (part of) the object. `disposal`: the phrase opens with 将 as the
 * preposition (我将 X 改成 Y), not as a filler ("will").
 */
function hanPhraseVerb(seq: readonly string[], from: number, lex: Lexicon, disposal = false): VerbMatch | null {
  let start = from;
  while (!disposal && lex.fillers.match(seq, start, lex.fillerUnits) && start - from < MAX_FILLERS) {
    start = (lex.fillers.match(seq, start, lex.fillerUnits) as { end: number }).end;
  }
  // 我去 Dockerfile 补上 X, 我这就去 useOrders.ts 里给 userId 加判空: after 去 the place phrase needs no preposition.
  // 针对/对于/关于 X 进行检查: a two-character preposition.
  if (TWO_CHAR_PREPOSITIONS.has(hanString(seq, start, start + 2))) start += 1;
  const moved = seq.slice(Math.max(0, from - 1), start).includes("去") && !isHan(seq[start]);
  const preposition = HAN_PREPOSITIONS.has(seq[start] ?? "") || moved;
  if (preposition && !moved) {
    const light = lightVerb(seq, start + 1, lex);
    if (light) return light;
  }
  let fallback: VerbMatch | null = null;
  for (let i = start + 1; i < Math.min(seq.length, start + MAX_PHRASE); i++) {
    if (BREAKS.has(seq[i] ?? "")) return fallback;
    if (!preposition && !HAN_PLACE_ENDS.has(seq[i - 1] ?? "")) continue;
    if (preposition && !moved && i === start + 1) continue;
    // After 的 a verb is a noun (X 的加锁顺序进行核查); before 的 it describes one (涉及更新的两段代码); inside a
    // word it is not a verb (装 in 安装步骤).
    // The segmenter may glue a place end to the verb (里加 is read as a name): after one, the verb stands.
    if (seq[i - 1] === "的" || (!HAN_PLACE_ENDS.has(seq[i - 1] ?? "") && !startsHanWord(seq, i))) continue;
    const verb = verbAfter(seq, i, lex);
    if (verb && seq[verb.end] === "的") continue;
    // An English word inside the phrase ("我把 package.json 的 COPY 挪到前面") is part of the object.
    if (
      verb &&
      !isHan(verb.phrase.units[0]) &&
      !/^(?:一下|下|到|成|出来|一遍|掉)/.test(hanString(seq, verb.end, verb.end + 2))
    )
      continue;
    if (verb && verb.phrase.action !== null) {
      // 把 X 打开看看 / 把 src/a.py 打开 opens a file to read it.
      const opensToRead =
        /看|读|瞧/.test(hanString(seq, verb.end, verb.end + 3)) || seq.slice(start, i).some((u) => /[./]/.test(u));
      const toggles = DISPOSAL.has(seq[start] ?? "") && TOGGLES.has(verb.phrase.text) && !opensToRead;
      const phrase =
        (CAUSATIVES.has(seq[start] ?? "") || toggles) && verb.phrase.action !== null
          ? { ...verb.phrase, action: "edit" as const }
          : verb.phrase;
      const found = {
        ...verb,
        phrase,
        phraseObject: seq.slice(preposition && !moved ? start + 1 : start, i),
        fillersSkipped: true,
      };
      // A verb that is also a noun (配置, 测试) may be part of the object: 我把数据库配置挪到 .env.
      if (!isConcept(verb.phrase.text, lex)) return found;
      fallback ??= found;
    }
  }
  return fallback;
}

/** 对 X 进行检查: the verb after 进行 is the action, everything between is the object, however long. */
function lightVerb(seq: readonly string[], from: number, lex: Lexicon): VerbMatch | null {
  for (let i = from + 1; i < seq.length - 2; i++) {
    if (BREAKS.has(seq[i] ?? "")) return null;
    if (seq[i] !== "进" || seq[i + 1] !== "行") continue;
    const verb = lex.verbs.match(seq, i + 2, lex.fillerUnits);
    if (!verb || verb.phrase.action === null) return null;
    return {
      phrase: verb.phrase,
      end: verb.end,
      at: i + 2,
      gerund: false,
      phraseObject: seq.slice(from, i),
      fillersSkipped: true,
    };
  }
  return null;
}

/** Whether a word starts at unit `i` of a Han run, by the segmenter's word boundaries (Latin units always start one). */
function startsHanWord(seq: readonly string[], i: number): boolean {
  if (!isHan(seq[i]) || !isHan(seq[i - 1])) return true;
  let start = i;
  while (isHan(seq[start - 1])) start--;
  let end = i;
  while (isHan(seq[end])) end++;
  let offset = start;
  for (const word of hanWords(seq.slice(start, end).join(""))) {
    if (offset === i) return true;
    if (offset > i) return false;
    offset += [...word].length;
  }
  return false;
}

const isConcept = (text: string, lex: Lexicon) => isHan(text[0]) && lex.concepts.has(text);

/** A bare 我 + verb is a promise only with a volitional mark: 我看看, 我查下, 我检查一下, 我把…改成 (not 我看这是…). */
function volitional(seq: readonly string[], subjectEnd: number, verb: VerbMatch, lex: Lexicon): boolean {
  if (verb.fillersSkipped || verb.at > subjectEnd || verb.phraseObject.length > 0) return true;
  // 麻烦等我一下，我看 X: a request to wait makes the next 我 + verb the thing waited for.
  if (POLITE_WAIT.test(hanOf(seq.slice(0, subjectEnd)))) return true;
  const verbUnits = verb.phrase.units;
  if (verbUnits.length >= 2 && verbUnits[0] === verbUnits[1]) return true;
  if (/一下|下$|一看|一眼/.test(verb.phrase.text)) return true;
  // 我查看 X 的状态: a verb of two characters or more with its object, not a clause about a time or a finding.
  const whole = seq.slice(verb.end).filter(isHan).join("");
  if (
    verbUnits.length >= 2 &&
    verb.phrase.action !== null &&
    verb.end < seq.length &&
    !/时|发现|觉得|认为|是|的话|过|了/.test(whole)
  ) {
    return true;
  }
  if (seq.at(-1) === ":") return true;
  const after = hanString(seq, verb.end, verb.end + 3);
  if (lex.zhVolitional.some((v) => after.startsWith(v))) return true;
  // Later in the clause: 我跑几遍 X 复现一下; or a tag that asks for agreement: 那我改 X，可以吧？
  const rest = seq.slice(verb.end).filter(isHan).join("");
  // …or Cantonese 先 at the end ("我改 X 做 Y 先": first).
  return /一下|看看|试试|[几两三]遍|[几两三]次|先$/.test(rest) || lex.zhTagQuestions.some((t) => rest.endsWith(t));
}

const POLITE_WAIT = /稍等|稍候|等我一下|等一下|等等我|给我一点时间|给我一分钟|等阵|等等/u;

/** A verb coordinated with the previous clause ("open X and swap Y", 我先改 X 再跑测试) takes its lead. */
function chained(seq: readonly string[], prev: Clause, lex: Lexicon): Clause | null {
  const at = objectEndAt(seq, prev.end, lex);
  let i = at;
  while (i < seq.length && (CHAIN.has(seq[i] ?? "") || seq[i] === ",")) i++;
  if (i === at && !CHAIN.has(seq[at] ?? "")) return null;
  const verb = verbAfter(seq, i, lex);
  if (!verb || verb.phrase.action === null) return null;
  const clause = build(seq, i, prev.lead, verb, lex, "lead");
  return {
    ...clause,
    start: prev.start,
    object: [...new Set([...prev.object, ...clause.object])],
    conditional: clause.conditional || prev.conditional,
    past: clause.past || prev.past,
    status: prev.status,
  };
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
  const span = [...verb.phraseObject, ...seq.slice(verb.end, objectEnd)];
  const object = objectTokens(span, lex);
  if (verb.phrase.implied) object.push(verb.phrase.implied);
  return {
    lead: lead || "(opens with the verb)",
    verb: verb.phrase.text,
    action: verb.phrase.action,
    object: [...new Set(object)],
    conditional: conditionalBefore(seq.slice(0, start), lex) || conditionalAfter(seq, verb.end, objectEnd, lex),
    past: pastTense(seq, start, verb, lex),
    status: statusReport(seq, verb, kind, lex),
    anaphoric: pointsBack(span),
    start,
    end: verb.end,
  };
}

const SUBJECTS = new Set(["it", "we", "they", "i", "you", "this", "that", "he", "she"]);
const POINTING = new Set(["that", "this", "these", "those", "it", "them", "same"]);

/** The object holds a demonstrative: "that unresolved reference", "the list for that table", 这个同步任务, 里的这两处. */
function pointsBack(span: readonly string[]): boolean {
  return span.some((u) => POINTING.has(u) || u === "这" || u === "那" || u === "它" || u === "该");
}

function skipAcknowledgements(seq: readonly string[], from: number, lex: Lexicon): number {
  let i = from;
  for (;;) {
    if (BREAKS.has(seq[i] ?? "")) {
      i++;
      continue;
    }
    const ack = lex.acknowledgements.match(seq, i, lex.fillerUnits);
    if (!ack || ack.end >= seq.length) return i;
    i = ack.end;
  }
}

/** The object runs to the end of the clause: a colon, a cut word ("so", "before"), or the next clause. */
function objectEndAt(seq: readonly string[], from: number, lex: Lexicon): number {
  for (let i = from; i < seq.length; i++) {
    const unit = seq[i] ?? "";
    if (unit === ":" || unit === "—" || unit === "–") return i;
    if (unit === "," && (isHan(seq[i - 1]) || isHan(seq[i + 1]))) return i;
    // "to" + a verb is a purpose ("to see whether"); "add X to the constructor" keeps its destination.
    if (i > from && lex.enObjectCuts.has(unit) && (unit !== "to" || purpose(seq, i + 1, lex))) return i;
    if (i > from && CHAIN.has(unit) && lex.verbs.match(seq, i + 1, lex.fillerUnits)) return i;
    if (i > from && unit === "," && lex.verbs.match(seq, i + 1, lex.fillerUnits)) return i;
    if (i > from && unit === "然" && seq[i + 1] === "后") return i;
    // Not after 的: X 的扫描设定 is a noun phrase.
    if (i > from + 1 && isHan(unit) && isHan(seq[i - 1]) && seq[i - 1] !== "的" && hanVerbAt(seq, i, lex)) return i;
  }
  return seq.length;
}

const purpose = (seq: readonly string[], at: number, lex: Lexicon) =>
  lex.enPurposeVerbs.has(seq[at] ?? "") || lex.verbs.match(seq, at, lex.fillerUnits) !== null;

/** A Han verb of two or more characters starting here: the object before it ends ("重跑基准测试确认时间"). */
function hanVerbAt(seq: readonly string[], at: number, lex: Lexicon): boolean {
  const verb = lex.verbs.match(seq, at, lex.fillerUnits);
  return verb !== null && verb.phrase.action !== null && verb.end - at >= 2 && !isConcept(verb.phrase.text, lex);
}

/** Concepts, lemmas and identifiers of an object span, stop words and pronouns dropped. */
export function objectTokens(span: readonly string[], lex: Lexicon = lexicon()): string[] {
  const out: string[] = [];
  let han = "";
  const flush = () => {
    if (han) addHan(han, out, lex);
    han = "";
  };
  for (const unit of span) {
    if (isHan(unit)) {
      han += unit;
      continue;
    }
    flush();
    if (!BREAKS.has(unit)) addLatin(unit, out, lex);
  }
  flush();
  return out;
}

/** Known nouns first (longest first: 编译错误 -> build, error), then the remaining words of two or more characters. */
function addHan(text: string, out: string[], lex: Lexicon): void {
  // 进行 is a light verb, not 进 + 行 (a line).
  let rest = text.split("进行").join(" ");
  for (const [surface, concept] of lex.hanConcepts) {
    if (!rest.includes(surface)) continue;
    out.push(concept);
    rest = rest.split(surface).join(" ");
  }
  for (const piece of rest.split(" ")) {
    if (!piece) continue;
    // The segmenter splits words it does not know into characters: runs of single characters stay one word.
    let run = "";
    const words: string[] = [];
    for (const word of hanWords(piece)) {
      if ([...word].length === 1 && !lex.zhStopWords.has(word)) {
        run += word;
        continue;
      }
      if (run) words.push(run);
      run = "";
      words.push(word);
    }
    if (run) words.push(run);
    for (const word of words) {
      if ([...word].length < 2 || lex.zhStopWords.has(word) || lex.pronouns.has(word)) continue;
      out.push(word);
    }
  }
}

const IDENTIFIER = /[./_@\d]|[a-z]-[a-z]/;
const ERROR_CODE = /^[a-z]{1,4}\d{3,5}$/;
const EXTENSION_CONCEPTS: Record<string, string> = { log: "log", md: "doc" };
export const FILE_EXTENSIONS: ReadonlySet<string> = new Set(
  "ts tsx js jsx mjs cjs json md py java go rs vue rb php c h cpp hpp cc cs kt kts swift sh bash zsh yml yaml toml xml txt log html htm css scss sass less sql lock ini cfg conf env properties gradle plist proto csv tsv mod sum tf hcl dart ex exs erl scala clj lua pl r ipynb svelte astro mdx rst jsonl ndjson graphql gql dockerfile makefile pem crt key service socket timer".split(
    " ",
  ),
);

function addLatin(word: string, out: string[], lex: Lexicon): void {
  // A number of three or more digits names something (migration 0007, issue 41882); a short one does not.
  if (/^\d{3,}$/.test(word)) {
    out.push(word);
    return;
  }
  if (lex.enStopWords.has(word) || lex.pronouns.has(word) || /^\d+$/.test(word)) return;
  if (ERROR_CODE.test(word)) {
    out.push("error");
    return;
  }
  if (IDENTIFIER.test(word)) {
    // "api.service's journal": the possessive is not part of the name.
    const file = (word.split("/").at(-1) ?? word).replace(/'s?$/, "");
    out.push(file);
    // A folder (src/styles) is the same noun as the word (styles folder).
    if (/^[a-z]+$/.test(file)) out.push(lex.concepts.get(lemmatize(file, lex)) ?? lemmatize(file, lex));
    const known = lex.concepts.get(file);
    if (known) out.push(known);
    for (const part of file.split(/[.@_-]/)) {
      if (Object.hasOwn(EXTENSION_CONCEPTS, part)) out.push(EXTENSION_CONCEPTS[part] as string);
      if (/^\d{3,}$/.test(part)) out.push(part);
      if (part === file || part.length < 2 || FILE_EXTENSIONS.has(part) || /^\d/.test(part)) continue;
      if (lex.enStopWords.has(part)) continue;
      out.push(lex.concepts.get(part) ?? part);
    }
    if (/^\d+s$/.test(word)) out.push(word.slice(0, -1));
    return;
  }
  const concept = lex.concepts.get(word);
  if (concept) {
    out.push(concept);
    return;
  }
  // A participle of an action verb describes the object, it is not one: "created", "applied".
  if (lex.enPast.has(word)) return;
  const lemma = lemmatize(word.replace(/'s?$/, ""), lex);
  out.push(lex.concepts.get(lemma) ?? lemma);
}

export function lemmatize(word: string, lex: Lexicon = lexicon()): string {
  const known = lex.lemmas.get(word);
  if (known) return known;
  if (word.length <= 3) return word;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(?:ss|us|is|as)$/.test(word)) return word;
  if (/(?:sses|xes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

function conditionalBefore(before: readonly string[], lex: Lexicon): boolean {
  for (let i = 0; i < before.length; i++) if (lex.enConditionals.match(before, i, lex.fillerUnits)) return true;
  const han = before.filter(isHan).join("");
  // 当你问…时，我会…: a promise for whenever something happens.
  return lex.zhConditionals.some((c) => han.includes(c)) || /当.{1,30}时/u.test(han);
}

function conditionalAfter(seq: readonly string[], verbEnd: number, objectEnd: number, lex: Lexicon): boolean {
  for (let i = verbEnd + 1; i <= Math.min(seq.length - 1, objectEnd + 1); i++) {
    // "I'll convert X first and keep Y for later": later is for the other thing.
    if (seq[i] === "later" && seq.slice(verbEnd, i).some((u) => u === "first" || u === "now")) continue;
    if (lex.enTrailingConditionals.match(seq, i, lex.fillerUnits)) return true;
  }
  const tail = seq.slice(verbEnd).filter(isHan).join("");
  return /之后再|以后再|(?<!然)后再|的话/.test(tail);
}

function pastTense(seq: readonly string[], start: number, verb: VerbMatch, lex: Lexicon): boolean {
  const head = seq[verb.at] ?? "";
  if (isHan(head)) {
    const after = hanString(seq, verb.end, verb.end + 2);
    // 到底, and 过 + 一遍 (读过一遍: through, once) are not the past.
    // 过来/过去 are directions (改过来: change it over), not the past.
    if (after.startsWith("到底") || /^过(?:一遍|一下|一次|来|去)/.test(hanString(seq, verb.end, verb.end + 3)))
      return false;
    const window = seq.slice(Math.max(0, start - 4), verb.at);
    // Only inside the clause: 接续刚才：我在 X 加上 Y is not the past.
    const lastBreak = Math.max(...window.map((u, i) => (BREAKS.has(u) ? i : -1)));
    const before = window
      .slice(lastBreak + 1)
      .filter(isHan)
      .join("");
    // 要/就要/将 + verb + 了 is "about to": 马上要重新编译了.
    if (lex.zhPastAfter.some((p) => after.startsWith(p)) && !/要|将|准备|打算/.test(before)) return true;
    return lex.zhPastBefore.some((p) => before.includes(p));
  }
  const prior = seq[start - 1];
  return prior !== undefined && lex.enPastBefore.has(prior);
}

const IMMEDIATE = new Set(["now", "next"]);
/** Finite verbs no object noun is spelled like ("failed traces", "open handles" are objects). */
const PLAIN_FINITE = new Set(
  "is are was were be been has have had takes took needs seems looks works fails passes succeeds breaks happens will would should can could does did".split(
    " ",
  ),
);
/** Verbs of a state report ("Testing is handled by Vitest now"), unlike those of an object's relative clause. */
const STATE_FINITE = new Set(
  [...PLAIN_FINITE].filter((v) => !/^(?:works|fails|passes|succeeds|breaks|happens)$/.test(v)),
);
/** What may follow a mid-sentence "now": "Pulling the logs now to diff them." */
const AFTER_NOW = new Set(["to", "so", "and", "—", ":"]);

/** A progress opener used for a state report: a finite verb follows, or 正在 + verb + comma and a fact. */
function statusReport(seq: readonly string[], verb: VerbMatch, kind: string, lex: Lexicon): boolean {
  if (kind === "gerund") {
    const rest = seq.slice(verb.end);
    // "Checking the jest setup for open handles now.": a step it is taking, whatever its object's words look like.
    if (IMMEDIATE.has(seq.at(-1) ?? "") && !rest.some((u) => u === "," || PLAIN_FINITE.has(u))) return false;
    // "Checking the config file CI passes to Playwright now.", "Pulling the logs now to diff them."
    const now = rest.indexOf("now");
    if (
      now > 0 &&
      !PLAIN_FINITE.has(rest[0] ?? "") &&
      (now === rest.length - 1 || AFTER_NOW.has(rest[now + 1] ?? "")) &&
      !rest.slice(0, now).some((u) => u === "," || STATE_FINITE.has(u))
    ) {
      return false;
    }
    // "Fixing the hook so it doesn't rely on X": a clause with its own subject after a cut word has its own verb.
    // "Running the build again to see if the errors are stable": a purpose or a condition has its own verb.
    const stop = rest.findIndex(
      (u, i) =>
        BREAKS.has(u) ||
        (lex.enObjectCuts.has(u) && SUBJECTS.has(rest[i + 1] ?? "")) ||
        WH_CLAUSE.has(u) ||
        (u === "to" && purpose(rest, i + 1, lex)),
    );
    return (
      (stop === -1 ? rest : rest.slice(0, stop)).some((u) => lex.enFiniteVerbs.has(u)) || statusAfterComma(rest, lex)
    );
  }
  // "Still running (PID 7781)": a process's state, named by its id.
  if (kind === "progressive" && verb.phrase.action === "run" && seq.slice(verb.end).includes("pid")) return true;
  if (kind !== "progressive" || !isHan(seq[verb.at])) return false;
  if (seq[verb.end] === "的" || seq[verb.end] === "中") return true;
  if (seq[verb.end] !== ",") return false;
  const rest = seq.slice(verb.end + 1).join("");
  // 正在改，把依赖那一层提前: the comma goes on with the action's own object, not a fact.
  return !/稍等|稍候|请等|马上|很快/.test(rest) && !/^(?:把|将)/.test(rest);
}

/** "Looking at the output, the error is in X": a participle opening a statement. */
function statusAfterComma(rest: readonly string[], lex: Lexicon): boolean {
  const comma = rest.indexOf(",");
  return comma !== -1 && rest.slice(comma + 1).some((u) => lex.enFiniteVerbs.has(u));
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
