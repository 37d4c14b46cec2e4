import { objectTokens } from "./intent.js";
import { ACTIONS, type Action } from "./lexicon.js";
import ja from "./lexicons/ja.json" with { type: "json" };
import ko from "./lexicons/ko.json" with { type: "json" };
import { units } from "./units.js";

/** Japanese and Korean: sentence endings say promise, past or question; verbs and objects are matched as substrings. */
interface EndingLexicon {
  promiseEndings: string[];
  progressiveEndings: string[];
  pastEndings: string[];
  questionEndings: string[];
  conditionals: string[];
  handBacks: string[];
  handBackExceptions: string[];
  tagQuestions: string[];
  statementEndings: string[];
  verbs: Partial<Record<Action, string[]>>;
  concepts: Record<string, string[]>;
}

export interface OtherScriptReading {
  kind: "promise" | "past" | "question" | "conditional" | "factual";
  reason: string;
  intents: { action: Action; object: string[]; verb: string; lead: string }[];
}

const HANGUL = /\p{Script=Hangul}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const CODE_BLOCK = /(```|~~~)[\s\S]*?(?:\1|$)/g;
/** What may join a verb stem to its ending: コンパイルし(てみます), 확인해 (볼게요), 확인하(겠습니다). */
const VERB_LINKS = ["", "し", "해", "하", "て"];

/** Null when the reply is neither Japanese nor Korean, or no sentence ends in a known way. */
export function readOtherScript(raw: string): OtherScriptReading | null {
  const lex: EndingLexicon | null = HANGUL.test(raw) ? ko : KANA.test(raw) ? ja : null;
  if (!lex) return null;
  const text = withoutTag(raw.normalize("NFKC"), lex);
  const sentences = text
    .replace(CODE_BLOCK, "\n")
    .split(/[。!?！？\n]+|\.(?=\s|$)/u)
    .map((s) =>
      s
        .trim()
        .replace(/[:：]$/, "")
        .trim()
        // Sentence-final particles after the ending: 修正しますね, 確認しますよ.
        .replace(/(?:よね|ね|よ)$/u, ""),
    )
    .filter((s) => s.length > 0);
  const last = sentences.at(-1) ?? "";
  if (/[?？]\s*$/.test(text.trim()) || lex.questionEndings.some((e) => last.endsWith(e))) {
    return { kind: "question", reason: "ends with a question", intents: [] };
  }
  const handBack = sentences.find(
    (s) => lex.handBacks.some((h) => s.includes(h)) && !lex.handBackExceptions.some((e) => s.includes(e)),
  );
  if (handBack) return { kind: "question", reason: "asks the user to act", intents: [] };
  let past: string | null = null;
  let conditional: OtherScriptReading | null = null;
  for (const sentence of [...sentences].reverse()) {
    const promise = promiseIn(sentence, lex);
    if (promise && !lex.conditionals.some((c) => sentence.includes(c))) return promise;
    if (promise) conditional ??= { ...promise, kind: "conditional", intents: [] };
    past ??= lex.pastEndings.find((e) => sentence.endsWith(e)) ?? null;
  }
  if (conditional) return { ...conditional, reason: `a promise under a condition: ${conditional.reason}` };
  if (past) return { kind: "past", reason: `tells what was done: "${past}"`, intents: [] };
  const statement = lex.statementEndings.find((e) => last.endsWith(e));
  return statement ? { kind: "factual", reason: `states a fact: "${statement}"`, intents: [] } : null;
}

/** "実行しますね、いいですか？", "추가할게요, 괜찮죠?": a promise with a tag asking for agreement is still a promise. */
function withoutTag(text: string, lex: EndingLexicon): string {
  const trimmed = text
    .trim()
    .replace(/[?？]+$/u, "")
    .trimEnd();
  const tag = lex.tagQuestions.find((t) => trimmed.endsWith(t) && /[、,，\s]$/u.test(trimmed.slice(0, -t.length)));
  return tag ? trimmed.slice(0, -tag.length).replace(/[、,，\s]+$/u, "") : text;
}

function promiseIn(sentence: string, lex: EndingLexicon): OtherScriptReading | null {
  const ending = [...lex.promiseEndings, ...lex.progressiveEndings]
    .sort((a, b) => b.length - a.length)
    .find((e) => sentence.endsWith(e));
  if (!ending) return null;
  const before = sentence.slice(0, -ending.length).trimEnd();
  for (const action of ACTIONS) {
    const verb = (lex.verbs[action] ?? []).find((v) => VERB_LINKS.some((link) => before.endsWith(`${v}${link}`)));
    if (!verb) continue;
    // A verb that names a thing (コンパイル, 테스트) is also its object.
    const object = [
      ...new Set([...objectsOf(before.slice(0, before.lastIndexOf(verb)), lex), ...objectsOf(verb, lex)]),
    ];
    const reason = `announces ${action}(${object.join(", ") || "-"}) via "${verb}…${ending}"`;
    return { kind: "promise", reason, intents: [{ action, object, verb, lead: ending }] };
  }
  return null;
}

function objectsOf(text: string, lex: EndingLexicon): string[] {
  const out: string[] = [];
  for (const [concept, surfaces] of Object.entries(lex.concepts))
    if (surfaces.some((s) => text.includes(s))) out.push(concept);
  // Katakana words name things (バージョンタグ, リリースノート).
  for (const word of text.match(/[\p{Script=Katakana}ー]{2,}/gu) ?? []) out.push(word);
  // Latin names glued to a particle (".gitignore에", "README를") keep their Latin part.
  const latin = (text.toLowerCase().match(/[\x21-\x7e]+/g) ?? []).flatMap((run) => units(run));
  out.push(...objectTokens(latin));
  return [...new Set(out)];
}
