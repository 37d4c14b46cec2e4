import { KANA_OR_HANGUL } from "./han.js";
import { type Clause, findClauses, objectTokens } from "./intent.js";
import { type Action, type Lexicon, lexicon } from "./lexicon.js";
import { boundedMemo } from "./memo.js";
import { readOtherScript } from "./other-script.js";
import { normalizeText, splitSentences, units } from "./units.js";

export type ReplyKind =
  | "promise"
  | "deliverable"
  | "question"
  | "refusal"
  | "blocker"
  | "conditional"
  | "past"
  | "status"
  | "factual"
  | "unknown-language"
  | "empty";

export type ReplyLang = "en" | "zh" | "mixed" | "other";

/** What a promise is about: its action and object. */
export interface Intent {
  action: string;
  object: string[];
  verb: string;
  lead: string;
  /** The object points back to one named before ("fix that reference"). */
  anaphoric?: boolean;
}

export interface ReplyClass {
  kind: ReplyKind;
  reason: string;
  lang: ReplyLang;
  /**
   * Whether the reply is in a language the rules read: Chinese, Japanese, Korean, or English by its share of function
   * words (a reply too short to tell counts as English). Elsewhere a reading other than "unknown-language" is of shape.
   */
  readable: boolean;
  /** The promised actions (only for "promise"). */
  intents: Intent[];
}

/** Prose (words + Han characters / 2) before the first promise above which a reply is an answer, not a promise. */
export const LONG_LEAD_UNITS = 60;
/** Prose after the last promise above which the reply went on to deliver something. */
export const LONG_TAIL_UNITS = 30;
const classified = boundedMemo<ReplyClass>();

export function classifyReply(text: string): ReplyClass {
  return classified(text, () => classify(text));
}

export function isPromiseReply(text: string): boolean {
  return classifyReply(text).kind === "promise";
}

interface Language {
  lang: ReplyLang;
  readable: boolean;
}

const result = (kind: ReplyKind, reason: string, language: Language, intents: Intent[] = []): ReplyClass => ({
  kind,
  reason,
  lang: language.lang,
  readable: language.readable,
  intents,
});

const CODE_BLOCK = /(```|~~~)[^\n]*\n?[\s\S]*?(?:\1|$)/g;
const BLOCKQUOTE = /^[ \t]*>.*$/gm;
/** Quoted text (with a space or a Han character inside): not the reply's own words. */
const QUOTED = /"[^"\n]*[\s\p{Script=Han}][^"\n]*"|「[^」]*」|『[^』]*』/gu;
/** A parenthetical aside of several words: "(COPY before install is the usual culprit)" says nothing of the promise. */
const ASIDE =
  /\((?=[^()\n]*\s[^()\n]*\s[^()\n]*\s)[^()\n]*\)|\((?=[^()\n]*\p{Script=Han})(?=[^()\n]*\s)[^()\n]{6,}\)/gu;
/** Inline code, paired left to right; with prose in it (Han text, a comment) it is quoted text too. */
const INLINE_CODE = /`[^`\n]*`/g;
const PROSE_IN_CODE = /\p{Script=Han}|\/\/|#\s/u;

/** Inline code without its sentence marks; code that holds "if" or "when" is one name (`IF NOT EXISTS` is no condition). */
function inlineName(code: string): string {
  const body = code
    .slice(1, -1)
    .replace(/[,:;?!—–。]/g, " ")
    .trim();
  return /\b(?:if|when|unless)\b/.test(body) ? ` ${body.split(/\s+/).join("_")} ` : ` ${body} `;
}
/** Words reported after "the TODO reads:", 标题是：… to the end of the line: someone else's words. */
const REPORTED =
  /(?:\b(?:says|said|reads|wrote|writes|titled|message is|comment is)|写的是|写着|内容是|标题是|原话是)\s*:[^\n]*/g;
const LIST_ITEM = /^\s*(?:[-*+•]\s|\d+[.)]\s|\d+、|[一二三四五六七八九十]+、)\s*/;
/** A heading that names the next step, alone on its line ("### 下一步", "**Next step**"): it leads the line after it. */
const STEP_HEADING = /^[#*\s]*(下一步|接下来|next step|next steps)[*\s]*\n+/gm;
/** A code block stands in the prose as one line of its own with this mark, so its place among the sentences stays. */
const CODE_MARK = "\u0001code";
const TABLE_LINE = /^\s*\|.*\|\s*$/;

interface Sentence {
  seq: string[];
  clauses: Clause[];
  text: string;
  listItem: boolean;
  /** Units of a code block standing here, null for prose. */
  code: string[] | null;
}

function classify(text: string): ReplyClass {
  const raw = text.trim();
  if (raw.length === 0) return result("empty", "no text", { lang: "other", readable: true });
  const lex = lexicon();
  const blocker = blockerCode(raw, lex);
  const normalized = normalizeText(raw);
  const codes: string[] = [];
  let shell: string | null = null;
  let allShell = true;
  const prose = normalized
    .replace(STEP_HEADING, "$1: ")
    .replace(CODE_BLOCK, (block) => {
      const body = block.replace(/^(```|~~~)[^\n]*|(```|~~~)$/g, "");
      if (!isShell(block)) allShell = false;
      else shell ??= body;
      codes.push(body);
      return `\n${CODE_MARK}${codes.length - 1}\n`;
    })
    .replace(BLOCKQUOTE, "")
    .replace(INLINE_CODE, (code) => (PROSE_IN_CODE.test(code) ? " " : inlineName(code)))
    .replace(QUOTED, " ")
    .replace(ASIDE, " ")
    .replace(REPORTED, " ");
  const codeBlocks = codes.length;
  const language = languageOf(raw, units(prose.replace(/\u0001code\d+/g, "")), lex);
  const { lang } = language;
  if (blocker?.hard) return result("blocker", `states blocker ${blocker.code}`, language);
  const other = KANA_OR_HANGUL.test(raw) ? readOtherScript(raw) : null;
  if (other) return result(other.kind, other.reason, language, other.intents);
  // A refusal ends the reply; "I won't kill anything yet. I'll inspect pid 22871" goes on to promise.
  const closing = splitSentences(prose).at(-1) ?? prose;
  const refusal = lex.refusals.find((r) => closing.includes(r));
  if (refusal) return result("refusal", `declines: "${refusal}"`, language);

  const sentences: Sentence[] = splitSentences(prose).map((s) => {
    if (s.startsWith(CODE_MARK)) {
      const code = units(codes[Number(s.slice(CODE_MARK.length))] ?? "");
      return { seq: [], clauses: [], text: "", listItem: false, code };
    }
    const seq = units(s);
    return { seq, clauses: findClauses(seq), text: s, listItem: LIST_ITEM.test(s) || TABLE_LINE.test(s), code: null };
  });
  leadListItems(sentences, lex);
  const handBack = handBackOf(sentences, lex);
  if (handBack) return result("question", handBack, language);

  const promises: { sentence: number; clause: Clause }[] = [];
  sentences.forEach((s, i) => {
    for (const c of s.clauses) {
      if (c.action !== null && !c.conditional && !c.past && !c.status) promises.push({ sentence: i, clause: c });
    }
  });
  const all = sentences.flatMap((s) => s.clauses);
  if (promises.length === 0) {
    const deliverable = all.find((c) => c.action === null && !c.conditional);
    if (deliverable) return result("deliverable", `delivers: "${deliverable.verb}"`, language);
    if (lang === "other" && shownCommand(sentences, sentences.findIndex((s) => s.code !== null) - 1)) {
      return result(
        "unknown-language",
        "a command shown in a code block, in a language the lexicons do not read",
        language,
      );
    }
    const listed = listPromise(sentences, lex);
    if (listed) {
      return result("promise", `a list of steps: ${listed.action}(${listed.object.join(", ")})`, language, [listed]);
    }
    const command = shell === null || !allShell || codeBlocks > 2 ? null : shownAlone(shell, sentences, all);
    if (command)
      return result("promise", `shows a command instead of running it: ${command.join(" ")}`, language, [
        { action: "run", object: command, verb: "(command shown in a code block)", lead: "(code block)" },
      ]);
    if (codeBlocks > 0 || sentences.some((s) => s.listItem)) {
      return result("deliverable", "a code block, list or table", language);
    }
    const shaped = all.find((c) => c.conditional) ?? all.find((c) => c.status) ?? all.find((c) => c.past);
    if (shaped?.conditional)
      return result("conditional", `a promise under a condition: "${clauseText(shaped)}"`, language);
    if (shaped?.status) return result("status", `reports a state: "${clauseText(shaped)}"`, language);
    if (shaped?.past) return result("past", `tells what was done: "${clauseText(shaped)}"`, language);
    if (blocker) return result("blocker", `states blocker ${blocker.code}`, language);
    if (lang === "other") return result("unknown-language", "no English or Chinese text to read", language);
    return result("factual", "no action-promise phrase", language);
  }
  const first = promises[0] as { sentence: number; clause: Clause };
  const last = promises.at(-1) as { sentence: number; clause: Clause };
  // Prose that promises nothing, before the last promise: an opening promise does not excuse the answer after it.
  const promising = new Set(promises.map((p) => p.sentence));
  const before =
    proseUnits(sentences.slice(0, last.sentence).filter((_, i) => !promising.has(i))) +
    countUnits(sentences[first.sentence]?.seq.slice(0, first.clause.start) ?? []);
  if (before >= LONG_LEAD_UNITS)
    return result("deliverable", `answers first (${before} units), then announces`, language);
  const after = tailUnits(sentences, last);
  if (after >= LONG_TAIL_UNITS) return result("deliverable", `goes on after the promise (${after} units)`, language);
  // The colon of the sentence's first promise: clauses after it belong to the answer ("让我看看：在 X 里加上 Y").
  const opening = promises.find((p) => p.sentence === last.sentence) ?? last;
  const answered = answersAfterColon(sentences, opening, lex);
  if (answered) return result("deliverable", answered, language);
  const intents: Intent[] = promises.map(({ clause, sentence }) => ({
    action: clause.action as string,
    object:
      clause === last.clause
        ? [
            ...new Set([
              ...clause.object,
              ...listedObjects(sentences, sentence),
              ...itemsFor(clause, sentences, sentence, lex),
            ]),
          ]
        : clause.object,
    verb: clause.verb,
    lead: clause.lead,
    anaphoric: clause.anaphoric,
  }));
  const shown =
    shownCommand(sentences, last.sentence) ??
    (shell !== null && allShell && codeBlocks <= 2 ? shownAlone(shell, sentences, all) : null);
  if (shown)
    intents.push({ action: "run", object: shown, verb: "(command shown in a code block)", lead: last.clause.lead });
  const named = intents.map((i) => `${i.action}(${i.object.join(", ") || "-"})`).join(", ");
  return result("promise", `announces ${named} via "${clauseText(last.clause)}"`, language, intents);
}

/** Items of at most this many units: a list of steps, not an answer laid out as a list. */
const STEP_ITEM_UNITS = 12;

/**
 * A list of steps the reply announces with no promise sentence: a header with an action verb ("Things to check:",
 * 接下来依次检查：) or items that open with one ("Plan:\n1. Check X\n2. Check Y"). The items are the object. Not when
 * the header tells what was done (了, "I checked") or the list is long prose.
 */
function listPromise(sentences: readonly Sentence[], lex: Lexicon): Intent | null {
  const first = sentences.findIndex((s) => s.listItem && s.code === null);
  const items = sentences.filter((s) => s.listItem && s.code === null);
  if (first < 1 || items.length < 2 || items.some((s) => countUnits(s.seq) > STEP_ITEM_UNITS)) return null;
  const header = sentences[first - 1] as Sentence;
  if (header.seq.at(-1) !== ":" || header.seq.some((u) => lex.enPast.has(u) || u === "了")) return null;
  if (countUnits(header.seq) > HEADER_UNITS || !announcesSteps(header, lex)) return null;
  if (lex.habitualMarkers.some((m) => containsPhrase(header.text, m))) return null;
  const rest = sentences.slice(first).filter((s) => !s.listItem && s.code === null);
  if (proseUnits(rest) > LONG_TAIL_UNITS) return null;
  const headVerb = firstVerb(header.seq, lex);
  if (headVerb === null) return null;
  const itemVerbs = items.map((s) => verbOpening(s.seq, lex));
  // "I'll work through these:", 我打算：: a lead with no verb the lexicons know takes the items unspecifically.
  const unspecific = hasLead(header, lex) || STEP_WORDS.test(header.text) ? "continue" : null;
  const action = headVerb !== "none" ? headVerb : itemVerbs.every((v) => v !== null) ? itemVerbs[0] : unspecific;
  if (!action) return null;
  const object = [
    ...new Set(items.flatMap((s, i) => objectTokens(s.seq.slice(itemVerbs[i] ? verbEnd(s.seq, lex) : 0)))),
  ];
  return { action, object, verb: "(a list of steps)", lead: "(list header)" };
}

const HEADER_UNITS = 12;
const STEP_WORDS =
  /\b(?:next|todo|to-do|to check|to try|to do|to verify|to look at|working through|going through|checklist)\b|接下来|下一步|打算|准备|依次|依序|逐项|清单|待办|待查|待会|逐一|按顺序|按次序|挨个|逐个/u;

/** A header that announces the reply's own next steps: a lead ("I'll", 我准备), a plan word, or "things to check". */
function announcesSteps(header: Sentence, lex: Lexicon): boolean {
  return STEP_WORDS.test(header.text) || hasLead(header, lex);
}

function hasLead(header: Sentence, lex: Lexicon): boolean {
  for (let i = 0; i < header.seq.length; i++) if (lex.leads.match(header.seq, i, lex.fillerUnits)) return true;
  return false;
}

/** The header's action verb; "none" for a header with no verb; null when it has a verb that delivers (summarize). */
function firstVerb(seq: readonly string[], lex: Lexicon): Action | "none" | null {
  for (let i = 0; i < seq.length; i++) {
    const verb = lex.verbs.match(seq, i, lex.fillerUnits);
    if (verb) return verb.phrase.action;
  }
  return "none";
}

const itemStart = (seq: readonly string[]) => (/^\d+$/.test(seq[0] ?? "") ? 1 : 0);

function verbOpening(seq: readonly string[], lex: Lexicon): Action | null {
  return lex.verbs.match(seq, itemStart(seq), lex.fillerUnits)?.phrase.action ?? null;
}

function verbEnd(seq: readonly string[], lex: Lexicon): number {
  return lex.verbs.match(seq, itemStart(seq), lex.fillerUnits)?.end ?? 0;
}

/** "Let me check two things:" followed by short list items: the items are what it will check. */
function listedObjects(sentences: readonly Sentence[], at: number): string[] {
  if (sentences[at]?.seq.at(-1) !== ":") return [];
  const out: string[] = [];
  for (const s of sentences.slice(at + 1)) {
    if (!s.listItem) break;
    out.push(...objectTokens(s.seq));
  }
  return out;
}

/**
 * A vague object ("these edits", 两件事, 这三个文件) stands for what the reply lists: the items after its colon
 * ("check these two: owner and uid") and the reply's list items ("- a\n- b\nLet me make these edits.").
 */
function itemsFor(clause: Clause, sentences: readonly Sentence[], at: number, lex: Lexicon): string[] {
  if (!clause.object.every((o) => lex.generic.has(o) || COUNTED.test(o))) return [];
  const seq = sentences[at]?.seq ?? [];
  const colon = seq.indexOf(":", clause.end);
  const inline = colon === -1 ? [] : objectTokens(seq.slice(colon + 1));
  return [...inline, ...sentences.filter((s) => s.listItem).flatMap((s) => objectTokens(s.seq))];
}

/** A counted vague noun: 两件事, 这三个文件, 几项. */
const COUNTED = /^[这那]?[一二两三四五六七八九十几]+(?:件事|件|项|点|个|处|步)/u;

/**
 * "Steps I'll take:" / 接下来我会： with no verb of its own, then list items that open with a verb ("- inspect the
 * handler"): each item is a clause under the header's lead.
 */
function leadListItems(sentences: Sentence[], lex: Lexicon): void {
  let lead: readonly string[] | null = null;
  for (const s of sentences) {
    if (s.code !== null) continue;
    if (!s.listItem) {
      const habitual = lex.habitualMarkers.some((m) => containsPhrase(s.text, m));
      lead = s.seq.at(-1) === ":" && s.clauses.length === 0 && !habitual ? leadIn(s.seq, lex) : null;
      continue;
    }
    if (!lead || s.clauses.length > 0) continue;
    const item = /^\d+$/.test(s.seq[0] ?? "") ? s.seq.slice(1) : s.seq;
    s.seq = [...lead, ...item];
    // An item's first word is a verb only if the lexicons know it ("- setuptools version" is a noun phrase).
    s.clauses = findClauses(s.seq).filter((c) => c.start === 0 && c.action !== "act");
  }
}

function leadIn(seq: readonly string[], lex: Lexicon): readonly string[] | null {
  for (let i = 0; i < seq.length; i++) {
    const lead = lex.leads.match(seq, i, lex.fillerUnits);
    if (lead) return lead.phrase.units.filter((u) => u !== "~");
  }
  return null;
}

const SHELL_FENCE = /^(?:```|~~~)\s*(?:bash|sh|shell|zsh|console|terminal|powershell|ps1|cmd)?\s*\n/;

/** A fenced block in a shell language, or an unlabelled one whose first line is a prompt ("$ npm test"). */
function isShell(block: string): boolean {
  const fence = SHELL_FENCE.exec(block);
  if (!fence) return false;
  return /\S/.test(fence[0].slice(3)) || /^\s*\$\s/.test(block.slice(fence[0].length));
}

/** The command is for the user to run: "please run", "in your terminal", 请在终端里手动运行; or steps follow it. */
const FOR_THE_USER = /\b(?:you|your|please)\b|请|你|您|手动|复制/u;
const THEN = /^(?:then|and then|after that|然后|之后|接着)/u;
/**
 * An instruction, not an own step: "Run this from the repo root:", "Then check with:", 在仓库根目录执行：, 然后验证一下：.
 * A bare "Run:" before the command stays the reply's own (it shows what it would run).
 */
const INSTRUCTION =
  /^(?:then,? )?(?:run|execute|try|use|type|paste|enter|check)\b(?: it| this| these| that| the following| with| from)\b|^then,? (?!i\b|i'|let me|we\b)[a-z]+ (?:with|this|it)\b|^(?:在|从)[^我:]{1,20}(?:执行|运行|跑)|^(?:然后|接着|之后)(?!我)[^:]{0,12}:/u;

/** Prose around a shown command at most this long: the reply is the command, not an answer that quotes one. */
const SHOWN_PROSE_UNITS = 20;

/**
 * A reply that only shows a shell command (with a short lead-in or note, no question, no report): the command it
 * would run, as the object of a "run" promise. Text that tells what was done or what holds is left alone.
 */
function shownAlone(shell: string, sentences: readonly Sentence[], clauses: readonly Clause[]): string[] | null {
  if (clauses.some((c) => c.past || c.status || c.conditional)) return null;
  const after = sentences.slice(sentences.findIndex((s) => s.code !== null) + 1).find((s) => s.code === null);
  if (
    sentences.some((s) => FOR_THE_USER.test(s.text) || INSTRUCTION.test(s.text)) ||
    (after && THEN.test(after.text))
  ) {
    return null;
  }
  if (proseUnits(sentences) > SHOWN_PROSE_UNITS) return null;
  const command = [...new Set(units(shell).filter((u) => !BREAK_UNITS.has(u) && !/^-/.test(u)))];
  return command.length > 0 ? command : null;
}

/** "Let me run:" followed by a code block: the command it shows instead of running it. */
function shownCommand(sentences: readonly Sentence[], at: number): string[] | null {
  const code = sentences[at + 1]?.code;
  if (!code || sentences[at]?.seq.at(-1) !== ":") return null;
  return [...new Set(code.filter((u) => !BREAK_UNITS.has(u) && !/^-/.test(u)))];
}

const BREAK_UNITS = new Set([",", ":", "—", "–"]);

function clauseText(c: Clause): string {
  return `${c.lead === "(sentence opens with the verb)" ? "" : `${c.lead} … `}${c.verb}`;
}

function countUnits(seq: readonly string[]): number {
  let latin = 0;
  let han = 0;
  for (const u of seq) {
    if (u === "," || u === ":") continue;
    if (/^\p{Script=Han}$/u.test(u)) han++;
    else latin++;
  }
  return latin + Math.ceil(han / 2);
}

function proseUnits(sentences: readonly Sentence[]): number {
  return sentences.reduce((n, s) => n + countUnits(s.seq), 0);
}

/** Units after a promise's colon, in its sentence, above which a clause there is the answer itself. */
const COLON_ANSWER_UNITS = 8;

/**
 * The promise is kept in the reply itself: "让我看看：浏览器先送 OPTIONS 预检，…" answers after its colon, and a writing verb
 * before code ("我来写一下：", "Let me write the config:") hands over what it announced.
 */
function answersAfterColon(
  sentences: readonly Sentence[],
  last: { sentence: number; clause: Clause },
  lex: Lexicon,
): string | null {
  const seq = sentences[last.sentence]?.seq ?? [];
  const colon = seq.indexOf(":", last.clause.end);
  if (colon === -1) return null;
  const answer = seq.slice(colon + 1);
  // "Continuing: I'll remove the line" restates the promise; "Let me do step 1 now: swap X for Y" names the step.
  const restates = answer.some((_, i) => lex.leads.match(answer, i, lex.fillerUnits) !== null);
  const clauses = answer.includes(",") && longestPart(answer) >= CLAUSE_UNITS;
  const size = countUnits(answer);
  const text = sentences[last.sentence]?.text ?? "";
  const shown = text.slice(text.indexOf(":") + 1);
  if (!restates && ((size >= COLON_ANSWER_UNITS && (states(answer, lex) || clauses)) || (size >= 5 && worked(shown)))) {
    return "answers after its colon";
  }
  const next = sentences[last.sentence + 1];
  const writes = WRITING.test(last.clause.verb);
  if (writes && colon === seq.length - 1 && next?.code) return "writes out what it announced";
  if (COMPOSING.test(last.clause.verb) && colon === seq.length - 1 && next?.listItem) return "lists what it announced";
  return null;
}

/** Verbs that write something out ("我来写一下：", "改成这样："), unlike actions a shown command carries out (建索引). */
const WRITING = /^(?:写|编写|改|调整|write|draft|rewrite)/u;
/** Verbs that compose a list ("我来整理一份：", "我来补上安全性：") whose items are the answer, not objects to check. */
const COMPOSING = /^(?:整理|补|列|汇总|总结|起草|写|draft|write|list|outline|summari[sz]e)/u;

/** A comma-separated part of at least this many units is a clause (advice, a finding), not a listed name. */
const CLAUSE_UNITS = 7;

function longestPart(seq: readonly string[]): number {
  let best = 0;
  let start = 0;
  for (let i = 0; i <= seq.length; i++) {
    if (i < seq.length && seq[i] !== ",") continue;
    best = Math.max(best, countUnits(seq.slice(start, i)));
    start = i + 1;
  }
  return best;
}

const REASONING = new Set(["because", "so", "you", "your", "since"]);

/** A worked answer: a computation shown (=, →) or 就是 (that is it); not a chain of steps ("a → b → c"). */
function worked(text: string): boolean {
  return /=|就是|对了/u.test(text) || (text.includes("→") && !stepChain(text));
}

/** Three or more short names joined by arrows: the order it will go through them. */
function stepChain(text: string): boolean {
  const parts = text.split("→").map((p) => p.replace(/[。.!！\s]+$/u, "").trim());
  return parts.length >= 3 && parts.every((p) => p.length > 0 && countUnits(units(p)) <= 5);
}

/** A clause that states or reasons: 是, 代表, 所以, 了, 你, "because", or an English finite verb. */
function states(seq: readonly string[], lex: Lexicon): boolean {
  if (seq.some((u) => u === "是" || u === "你" || lex.enFiniteVerbs.has(u) || REASONING.has(u))) return true;
  return /代表|就是|意味|所以|因为|了|会|一致/.test(seq.filter((u) => /^\p{Script=Han}$/u.test(u)).join(""));
}

/** Prose after the last promise; short list items right after it are its objects ("check two things: - a - b"). */
function tailUnits(sentences: readonly Sentence[], last: { sentence: number; clause: Clause }): number {
  const rest = sentences[last.sentence]?.seq.slice(last.clause.end) ?? [];
  const colon = rest.indexOf(":");
  let n = colon === -1 ? 0 : countUnits(rest.slice(colon + 1));
  let itemsAllowed = true;
  for (const s of sentences.slice(last.sentence + 1)) {
    const size = countUnits(s.seq);
    if (itemsAllowed && (s.code !== null || (s.listItem && size <= 12))) continue;
    itemsAllowed = false;
    n += size;
  }
  return Math.max(0, n);
}

const USER_QUESTION = /(?:你|您|\byou\b)[^\n]*(?:[?？]|吗)\s*$/u;

/** The reply hands the turn back: its last sentence asks the user, or asks the user to act. */
function handBackOf(sentences: readonly Sentence[], lex: Lexicon): string | null {
  const lastTwo = sentences.filter((s) => !s.listItem).slice(-2);
  for (const s of lastTwo) {
    const phrase = lex.handBacks.find(
      (h) =>
        containsPhrase(s.text, h) && !ownAction(s.text, h) && !embeddedQuestion(s.text, h) && !asksToWait(s.text, h),
    );
    if (phrase) return `hands back: "${phrase}"`;
  }
  // "先确认一下：\n- 你有 API key 吗？": a listed question to the user.
  if (sentences.some((s) => s.listItem && USER_QUESTION.test(s.text))) return "asks the user in a list item";
  const last = lastTwo.at(-1);
  if (!last) return null;
  const question = last.text.replace(/["')\]」』\s]+$/, "");
  if (!/[?]$|[吗呢]$|[吗呢][?]?$/.test(question)) return null;
  if (endsWithTag(question.replace(/[?]+$/, "").trimEnd(), lex)) return null;
  return "ends with a question to the user";
}

/** "I'll run the suite first, okay?" is a promise with a tag, not a question to the user. */
function endsWithTag(body: string, lex: Lexicon): boolean {
  const squashed = body.replace(/(?<=\p{Script=Han}|\w)\s+(?=\p{Script=Han})/gu, "");
  return lex.tagQuestions.some((tag) => {
    if (!squashed.endsWith(tag)) return false;
    const rest = squashed.slice(0, -tag.length).trimEnd();
    return /[,—–-]$|\p{Script=Han}$/u.test(rest);
  });
}

/** 我检查一下 KVM 模块是否已载入。: 是否 inside a statement (not after 你) asks nothing of the user. */
function embeddedQuestion(text: string, phrase: string): boolean {
  const at = text.indexOf(phrase);
  return (
    EMBEDDABLE.has(phrase) && at > 0 && !/[你您]\s*$/u.test(text.slice(0, at)) && !/[?？吗呢]\s*$/u.test(text.trim())
  );
}

/** 请您稍候, 请你再等一下: asking the user to wait hands nothing back. */
function asksToWait(text: string, phrase: string): boolean {
  const rest = text.slice(text.indexOf(phrase) + phrase.length);
  return /^(?:再)?(?:稍候|稍等|等一下|等等|耐心等)/u.test(rest.trimStart());
}

/** Question words that also make indirect questions: 我检查一下 X 是否已载入, 数据量会影响要不要分批. */
const EMBEDDABLE = new Set(["是否", "要不要", "是否需要", "需不需要"]);

/** "I'll try again", 我再试一次: the hand-back words ("try again", 再试一次) name the reply's own next step. */
const OWN_LEAD = /(?:\bi'll|\bi will|\blet me|\bi'm going to|\bwe'll|我|我来|让我|我们)\s*$/u;

function ownAction(text: string, phrase: string): boolean {
  return OWN_LEAD.test(text.slice(0, text.indexOf(phrase)));
}

function containsPhrase(text: string, phrase: string): boolean {
  const at = text.indexOf(phrase);
  if (at === -1) return false;
  if (!/^[a-z]/.test(phrase)) return true;
  const before = text[at - 1];
  const after = text[at + phrase.length];
  return (before === undefined || !/[\p{L}\p{N}']/u.test(before)) && (after === undefined || !/[a-z0-9']/.test(after));
}

const UPPER_SNAKE = /(?<![\w-])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w-])/g;

/**
 * Codes that say work cannot go on. "Hard" ones (denied, blocked, unavailable ...) end the turn whatever follows;
 * "soft" ones (BUILD_FAILED, MODULE_NOT_FOUND) only when the reply promises nothing.
 */
function blockerCode(text: string, lex: Lexicon): { code: string; hard: boolean } | null {
  const lower = text.normalize("NFKC").toLowerCase();
  const prefix = lex.blockedPrefixes.find((p) => lower.startsWith(p) || lower.includes(`\n${p}`));
  if (prefix) return { code: prefix.trim(), hard: true };
  let soft: string | null = null;
  for (const match of text.matchAll(UPPER_SNAKE)) {
    const code = match[0];
    if (lex.blockerCodes.has(code)) return { code, hard: true };
    if (!isStated(text, match.index, code.length)) continue;
    if (lex.hardBlockerEndings.some((end) => code.endsWith(`_${end}`))) return { code, hard: true };
    if (lex.softBlockerEndings.some((end) => code.endsWith(`_${end}`))) soft ??= code;
  }
  return soft ? { code: soft, hard: false } : null;
}

/** "CODE: ..." or a line that opens with the code, as opposed to a code mentioned inside a sentence. */
function isStated(text: string, at: number, length: number): boolean {
  const before = text.slice(text.lastIndexOf("\n", at - 1) + 1, at);
  const after = text.slice(at + length);
  return /^[\s*`>#-]*$/.test(before) || /[:：]\s*[`*]*$/.test(before) || /^[`*]*\s*[:：]/.test(after);
}

/** Letters of a script the lexicons do not read (Hangul, Kana, Cyrillic, Greek ...). */
// biome-ignore lint/complexity/useRegexLiterals: a literal with the v flag needs an ES2024 target
const OTHER_SCRIPT = new RegExp("[\\p{L}--[\\p{Script=Latin}\\p{Script=Han}]]", "v");

/** Of a reply's words, the share of English function words at which it reads as English; fewer words cannot tell. */
const ENGLISH_SHARE = 0.15;
const FEWEST_WORDS = 8;

function languageOf(raw: string, seq: readonly string[], lex: Lexicon): Language {
  if (KANA_OR_HANGUL.test(raw)) return { lang: "other", readable: true };
  let han = 0;
  let english = 0;
  let words = 0;
  for (const u of seq) {
    if (/^\p{Script=Han}$/u.test(u)) han++;
    else if (/^[a-z']+$/.test(u)) {
      words++;
      if (lex.enStopWords.has(u) || lex.fillerUnits.has(u)) english++;
    } else if (/^\p{L}+$/u.test(u)) words++;
  }
  if (han > 0) return { lang: english >= 2 || words >= 3 ? "mixed" : "zh", readable: true };
  const readable = words < FEWEST_WORDS || english >= ENGLISH_SHARE * words;
  if (OTHER_SCRIPT.test(raw.replace(/```[\s\S]*?```/g, ""))) return { lang: "other", readable };
  return { lang: words >= 3 && english === 0 ? "other" : "en", readable };
}
