import { cjkChars, normalize, sentences, untilSentenceEnd, words } from "./text.js";

export type ReplyKind = "promise" | "factual" | "deliverable" | "question" | "refusal" | "blocker" | "empty";

export interface ReplyClass {
  kind: ReplyKind;
  reason: string;
}

/** Codes the kit and its host tools emit when work cannot go on. */
export const KNOWN_BLOCKER_CODES: readonly string[] = [
  "BLOCKED",
  "CONTEXT_ACCESS_DENIED",
  "VERIFICATION_INCOMPLETE",
  "STALLED_NO_TOOL_PROGRESS",
  "READ_ACCESS_DENIED",
  "FILE_NOT_FOUND",
  "FILE_TOO_LARGE",
  "UNSUPPORTED_BINARY",
  "UNSUPPORTED_FILE_TYPE",
];
/** Any other UPPER_SNAKE code whose last part says why work stopped, when stated (opens a line, or by a colon). */
export const BLOCKER_CODE_ENDINGS: readonly string[] = [
  "DENIED",
  "BLOCKED",
  "INCOMPLETE",
  "PROGRESS",
  "FAILED",
  "FAILURE",
  "FOUND",
  "UNAVAILABLE",
  "UNSUPPORTED",
  "FORBIDDEN",
  "REFUSED",
  "EXCEEDED",
  "TIMEOUT",
  "MISSING",
  "REQUIRED",
];
const UPPER_SNAKE = /(?<![\w-])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w-])/g;
const BLOCKED_PREFIX = /(?<![\w-])(?:BLOCKED|BLOCKER)\s*[:：]/;

export const EN_REFUSALS: readonly string[] = [
  "i can't help",
  "i cannot help",
  "i can't assist",
  "i cannot assist",
  "i won't",
  "i will not",
  "i'm unable to help",
  "i am unable to help",
  "i'm not able to help",
  "i must decline",
  "i'm sorry, but i can't",
  "i'm sorry, but i cannot",
  "i can't do that",
  "i cannot do that",
];
export const ZH_REFUSALS: readonly string[] = [
  "我不能帮",
  "我无法帮",
  "我不能协助",
  "我无法协助",
  "我拒绝",
  "恕我不能",
  "恕难从命",
  "抱歉，我不能",
  "抱歉，我无法",
  "我不会这样做",
];

/** Phrases that hand the turn back to the user. A reply that ends in a question mark does too. */
export const EN_USER_QUESTIONS: readonly string[] = [
  "would you like",
  "do you want",
  "should i",
  "shall i",
  "could you",
  "can you",
  "please confirm",
  "please let me know",
  "let me know",
  "which one do you",
];
export const ZH_USER_QUESTIONS: readonly string[] = [
  "你希望",
  "您希望",
  "你想要",
  "您想要",
  "请问",
  "需要我",
  "要不要",
  "是否需要",
  "请确认",
  "请告诉我",
  "你能否",
  "您能否",
];

/** Word + CJK-character weight above which a reply is an analysis, not a one-line announcement. */
export const LONG_REPLY_UNITS = 60;
const CODE_FENCE = /```|~~~/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$/m;
const LIST_ITEM = /^\s*(?:[-*+•]|\d+[.)、]|[一二三四五六七八九十]+、)\s*\S/;

/** Openers that announce an action, followed closely by an action verb. */
export const EN_PROMISE_LEADS: readonly string[] = [
  "let me",
  "let's",
  "let us",
  "i'll",
  "i will",
  "i shall",
  "i'm going to",
  "i am going to",
  "i'm gonna",
  "i'm about to",
  "i need to",
  "i'd like to",
  "i want to",
  "we'll",
  "we will",
  "allow me to",
];
// biome-ignore format: a word list reads better packed
export const EN_ACTION_VERBS: readonly string[] = [
  "check", "look", "review", "read", "inspect", "examine", "open", "run", "rerun", "re-run", "verify",
  "investigate", "analyze", "analyse", "search", "find", "fix", "confirm", "explore", "scan", "see", "dig", "dive",
  "debug", "test", "build", "compile", "try", "grep", "list", "trace", "compare", "fetch", "load", "figure",
  "pull", "diagnose", "locate", "identify", "study", "query", "browse", "skim", "revisit", "recheck",
  "double-check", "evaluate", "assess", "audit", "validate", "reproduce", "execute", "start", "begin", "continue",
  "proceed", "work", "update", "edit", "modify", "patch", "resolve", "address", "handle", "implement", "write",
  "create", "add", "refactor", "install",
];
/** Words looked at after a lead: "I'll go ahead and check", "let me first take a quick look". */
export const EN_VERB_WINDOW = 5;
/** A whole short reply that is only a progress gerund: "Checking the compiler errors now." */
export const EN_GERUND_MAX_WORDS = 8;

export const ZH_PROMISE_LEADS: readonly string[] = [
  "让我",
  "我来",
  "我先",
  "我会",
  "我将",
  "我要",
  "我去",
  "我再",
  "我这就",
  "我马上",
  "我现在",
  "我准备",
  "我打算",
  "我正在",
  "我们来",
  "我们先",
  "接下来",
  "首先",
  "先来",
];
// biome-ignore format: a word list reads better packed
export const ZH_ACTION_VERBS: readonly string[] = [
  "检查", "查看", "看一下", "看看", "看下", "看一看", "瞧瞧", "确认", "阅读", "读取", "读一下", "分析", "排查",
  "运行", "执行", "修复", "处理", "核对", "审查", "梳理", "研究", "搜索", "查找", "打开", "编译", "测试", "定位",
  "了解", "调查", "验证", "检索", "查一下", "查询", "修改", "跑一下", "试试", "尝试", "复查", "浏览", "翻看",
];
/** Characters allowed between a Chinese lead and its verb: "让我先仔细地检查". */
export const ZH_VERB_WINDOW = 6;
/** Acknowledgements stripped before looking at how a reply opens. */
const ACKNOWLEDGEMENT = /^(?:ok(?:ay)?|sure|alright|got it|好的|好|嗯|收到|明白)[,，.。!！\s]+/;

export function classifyReply(text: string): ReplyClass {
  const raw = text.trim();
  if (raw.length === 0) return { kind: "empty", reason: "no text" };
  const blocker = blockerCode(raw);
  if (blocker) return { kind: "blocker", reason: `states blocker ${blocker}` };
  const lower = normalize(raw);
  const refusal = firstIncluded(lower, EN_REFUSALS) ?? firstIncluded(lower, ZH_REFUSALS);
  if (refusal) return { kind: "refusal", reason: `declines: "${refusal}"` };
  const question = userQuestion(lower);
  if (question) return { kind: "question", reason: question };
  const deliverable = deliverableShape(raw);
  if (deliverable) return { kind: "deliverable", reason: deliverable };
  const promise = promisePhrase(lower);
  if (promise) return { kind: "promise", reason: `announces an action: "${promise}"` };
  return { kind: "factual", reason: "no action-promise phrase" };
}

export function isPromiseReply(text: string): boolean {
  return mayBePromise(text) && classifyReply(text).kind === "promise";
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/**
 * A cheap test that is false only when `classifyReply` cannot return "promise": plain ASCII text (where normalising is
 * lower-casing) with no English lead phrase and more than one sentence. Everything else gets the full classifier.
 */
export function mayBePromise(text: string): boolean {
  if (!ASCII_ONLY.test(text)) return true;
  const lower = text.toLowerCase();
  return EN_PROMISE_LEADS.some((lead) => lower.includes(lead)) || sentences(lower.trim()).length <= 1;
}

function blockerCode(text: string): string | null {
  if (BLOCKED_PREFIX.test(text)) return "BLOCKED:";
  for (const match of text.matchAll(UPPER_SNAKE)) {
    const code = match[0];
    if (KNOWN_BLOCKER_CODES.includes(code)) return code;
    const endsLikeBlocker = BLOCKER_CODE_ENDINGS.some((end) => code.endsWith(`_${end}`));
    if (endsLikeBlocker && isStated(text, match.index, code.length)) return code;
  }
  return null;
}

/** "CODE: ..." or a line that opens with the code, as opposed to a code mentioned inside a sentence. */
function isStated(text: string, at: number, length: number): boolean {
  const before = text.slice(text.lastIndexOf("\n", at - 1) + 1, at);
  const after = text.slice(at + length);
  return /^[\s*`>#-]*$/.test(before) || /[:：]\s*[`*]*$/.test(before) || /^[`*]*\s*[:：]/.test(after);
}

function userQuestion(lower: string): string | null {
  if (/[?？]["'”」)）\s]*$/.test(lower)) return "ends with a question to the user";
  const phrase = firstIncluded(lower, EN_USER_QUESTIONS) ?? firstIncluded(lower, ZH_USER_QUESTIONS);
  return phrase ? `asks the user: "${phrase.trim()}"` : null;
}

function deliverableShape(raw: string): string | null {
  if (CODE_FENCE.test(raw)) return "contains a code block";
  if (TABLE_RULE.test(raw)) return "contains a table";
  const items = raw.split("\n").filter((line) => LIST_ITEM.test(line)).length;
  if (items >= 2) return `contains a list of ${items} items`;
  const units = words(raw).length + Math.ceil(cjkChars(raw) / 2);
  if (units >= LONG_REPLY_UNITS) return `long reply (${units} units)`;
  return null;
}

function promisePhrase(lower: string): string | null {
  for (const lead of [...EN_PROMISE_LEADS, ...ZH_PROMISE_LEADS]) {
    for (const at of occurrences(lower, lead)) {
      const rest = untilSentenceEnd(lower.slice(at + lead.length));
      const verb = verbSoonAfter(rest);
      if (verb) return `${lead} … ${verb}`;
    }
  }
  const all = sentences(lower);
  const opener = all[0]?.replace(ACKNOWLEDGEMENT, "") ?? "";
  const first = words(opener);
  if (all.length === 1 && first.length <= EN_GERUND_MAX_WORDS && isActionGerund(first[0])) return first[0] ?? null;
  if (opener.startsWith("正在")) return zhVerbWithin(opener.slice(2));
  return null;
}

function verbSoonAfter(rest: string): string | null {
  const enVerb = words(rest)
    .slice(0, EN_VERB_WINDOW)
    .find((w) => isActionVerb(w));
  return enVerb ?? zhVerbWithin(rest);
}

function zhVerbWithin(rest: string): string | null {
  const head = rest.trimStart();
  // "正在运行的进程" uses the verb as an attribute, not as an action.
  const isAction = (verb: string) => {
    const at = head.indexOf(verb);
    return at !== -1 && at <= ZH_VERB_WINDOW && head[at + verb.length] !== "的";
  };
  return ZH_ACTION_VERBS.find(isAction) ?? null;
}

function isActionVerb(word: string): boolean {
  return (
    EN_ACTION_VERBS.some((verb) => word === verb || word === `${verb}s` || word === `${verb}ing`) ||
    isActionGerund(word)
  );
}

function isActionGerund(word: string | undefined): boolean {
  if (!word?.endsWith("ing")) return false;
  const stem = word.slice(0, -3);
  return EN_ACTION_VERBS.some((verb) => stem === verb || `${stem}e` === verb || stem === `${verb}${verb.at(-1)}`);
}

/** Start indices where `phrase` occurs on word boundaries (CJK phrases match anywhere). */
function occurrences(text: string, phrase: string): number[] {
  const out: number[] = [];
  const latin = /^[a-z]/.test(phrase);
  for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at + 1)) {
    const before = text[at - 1];
    if (latin && before !== undefined && /[\p{L}\p{N}']/u.test(before)) continue;
    const after = text[at + phrase.length];
    if (latin && after !== undefined && /[a-z0-9']/.test(after)) continue;
    out.push(at);
  }
  return out;
}

const normalizedPhrases = new Map<string, string>();

function firstIncluded(text: string, phrases: readonly string[]): string | null {
  return (
    phrases.find((p) => {
      let n = normalizedPhrases.get(p);
      if (n === undefined) {
        n = normalize(p);
        normalizedPhrases.set(p, n);
      }
      return text.includes(n) && occurrences(text, n).length > 0;
    }) ?? null
  );
}
