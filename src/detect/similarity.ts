import { FILE_EXTENSIONS, objectTokens } from "./intent.js";
import { lexicon } from "./lexicon.js";
import { classifyReply, type Intent, type ReplyClass } from "./reply-classifier.js";
import { normalizeText, units } from "./units.js";

/**
 * Two replies at or above this score promise the same thing: a compatible action (score 1) times how much their
 * objects agree (weighted Dice; 1 when neither names one, 0.6 when one of them leaves it implicit: "Still checking.").
 */
export const SIMILARITY_THRESHOLD = 0.45;
/** Character-bigram Dice above which two replies in a language the lexicons do not cover count as the same reply. */
export const NEAR_IDENTICAL = 0.85;
const IMPLICIT_OBJECT = 0.6;
const OVERLAP_SHARE = 0.9;
/**
 * Two promises in a row (no tool progress between them, other replies aside) of a compatible action score this times
 * the actions' affinity when the later one renames the object: it points back ("that reference") or the replies share
 * a name. Agents rename the object they keep promising ("the signing step" / "the sign target") more often than they
 * announce two different things of one kind without doing either.
 */
export const ADJACENT_SAME_ACTION = 0.6;

/** fix and edit both change code; inspect and search both look; `continue` ("I'll proceed with the migration") goes with any action. */
function actionAffinity(a: string, b: string): number {
  if (a === b) return 1;
  if ((a === "fix" && b === "edit") || (a === "edit" && b === "fix")) return 1;
  // "look up which version" and "check which version" ask the same question.
  if ((a === "inspect" && b === "search") || (a === "search" && b === "inspect")) return 0.8;
  // "run git blame" / 看 git blame, 跑 bigkeys 扫描 / 扫一下大 key: running a tool to look is looking.
  if ((a === "inspect" && b === "run") || (a === "run" && b === "inspect")) return 0.6;
  // "apply ruff's autofix" / "run the autofix", 升级依赖 / go get -u: running a tool and changing code meet on one object.
  if ((a === "run" && (b === "edit" || b === "fix")) || (b === "run" && (a === "edit" || a === "fix"))) return 0.5;
  if (a === "continue" || b === "continue" || a === "act" || b === "act") return 0.9;
  return 0;
}

function weight(token: string): number {
  const lex = lexicon();
  if (lex.generic.has(token)) return 0.5;
  return /[./_@]/.test(token) ? 2 : 1;
}

function weightOf(tokens: Iterable<string>): number {
  let w = 0;
  for (const t of new Set(tokens)) w += weight(t);
  return w;
}

export function objectSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return IMPLICIT_OBJECT;
  const right = new Set(b);
  let shared = 0;
  let total = 0;
  for (const t of new Set(a)) {
    const w = weight(t);
    total += w;
    if (right.has(t)) shared += 2 * w;
  }
  for (const t of right) total += weight(t);
  if (total === 0) return 0;
  // The mean of Dice and the overlap coefficient, or most of the overlap: a paraphrase may add detail to the same
  // object ("add @media rules" / "add @media (max-width: 768px) to Login.vue").
  const dice = shared / total;
  const overlap = shared / 2 / Math.min(weightOf(a), weightOf(right));
  return Math.min(1, Math.max((dice + overlap) / 2, OVERLAP_SHARE * overlap));
}

export function intentSimilarity(a: Intent, b: Intent): number {
  const affinity = actionAffinity(a.action, b.action);
  return affinity === 0 ? 0 : affinity * objectSimilarity(a.object, b.object);
}

/**
 * Consecutive promises of a compatible action are the same promise with its object renamed, unless they clearly
 * differ: two different files or symbols, or a later reply that opens as a further step ("Then I'll ...", 然后 ...).
 * Renamed means the object points back ("that reference", 这个任务) or the two replies share a content word.
 */
function adjacentSimilarity(
  x: Intent,
  y: Intent,
  textA: string,
  textB: string,
  earlier: readonly string[],
  further: boolean,
): number {
  if (further || differentThings(x.object, y.object)) return 0;
  const affinity = actionAffinity(x.action, y.action);
  if (affinity === 0) return 0;
  // The same tool, file or symbol named in both (跑 2to3 / 用 2to3 扫一遍): one promise in two related verbs.
  if (x.object.some((t) => NAME.test(t) && y.object.includes(t))) return ADJACENT_SAME_ACTION;
  const renamed =
    x.anaphoric ||
    y.anaphoric ||
    sharesWord(textA, textB) ||
    earlier.some((text) => sharesWord(text, textB) && (sharesWord(text, textA) || !ownNames(textA, [text, textB])));
  return renamed ? affinity * ADJACENT_SAME_ACTION : 0;
}

/** A name, not a word: a path, a file, a dotted or snake_case symbol, a tool with digits in it. */
const NAME = /[./_@]|\d[a-z]|[a-z]\d/;

export const FURTHER_STEP =
  /^(?:then|finally|after that|afterwards|also|and then|lastly|然后|最后|另外|之后|接着|其次|还有|다음으로|마지막으로|그다음|次に|最後に|それから)/u;

/** A word's stem for matching renamed objects: "signing" / "sign", "indexes" / "index". */
function stem(token: string): string {
  if (!/^[a-z]{5,}$/.test(token)) return token;
  return token.replace(/(?:ing|ed|es|s)$/, "");
}

const IDENTIFIER = /[./_@]/;

/**
 * Both name files (or both name symbols) and none of them meet (by file name): two different things. A file against
 * a symbol (pricing.py / calc_discount) may be one thing named twice.
 */
export function differentThings(a: readonly string[], b: readonly string[]): boolean {
  for (const kind of [isFile, isSymbol]) {
    const left = new Set(a.filter(kind).map(fileName));
    const right = b.filter(kind).map(fileName);
    if (left.size === 0 || right.length === 0 || right.some((t) => left.has(t))) continue;
    // Symbols that share a word are parts of one thing: get_queryset and the queryset's prefetch_related.
    if (kind === isSymbol && sharesPart(a, b)) continue;
    return true;
  }
  return false;
}

/** One object names a word on its own that is part of a symbol the other names (queryset / get_queryset). */
function sharesPart(a: readonly string[], b: readonly string[]): boolean {
  return partNamed(a, b) || partNamed(b, a);
}

function partNamed(a: readonly string[], b: readonly string[]): boolean {
  const partsOf = (list: readonly string[]) =>
    new Set(list.filter(isSymbol).flatMap((t) => t.split(/[._@/:-]+/).filter((p) => p.length >= 4)));
  const own = partsOf(a);
  const words = a.filter((t) => !IDENTIFIER.test(t) && !own.has(t));
  const theirs = partsOf(b);
  return words.some((w) => theirs.has(w));
}

/** A path, or a name with a file extension: "hub.go", not the method "hub.pump" nor the word "log". */
const isFile = (t: string) =>
  t.includes("/") || (t.includes(".") ? FILE_EXTENSIONS.has(t.split(".").at(-1) ?? "") : BARE_FILES.has(t));
const BARE_FILES = new Set(["dockerfile", "makefile", "gemfile", "procfile", "jenkinsfile", "vagrantfile"]);
const isSymbol = (t: string) => IDENTIFIER.test(t) && !isFile(t);

/** A path's file name; a dotted symbol's last part (reports.build_pdf is build_pdf). */
const fileName = (t: string) => {
  const last = t.split("/").filter(Boolean).at(-1) ?? t;
  return isFile(last) ? last : (last.split(/\.|::/).at(-1) ?? last);
};

const KANA_OR_HANGUL_WORD = /[\p{Script=Hiragana}\p{Script=Hangul}]/u;
const WORDS_LIMIT = 4096;
const replyWords = new Map<string, ReadonlySet<string>>();

/** The names and concepts in a reply's prose, stemmed: its words without generic nouns and verbs. Memoised per text. */
function wordsOf(text: string): ReadonlySet<string> {
  const known = replyWords.get(text);
  if (known) return known;
  const lex = lexicon();
  const prose = normalizeText(text).replace(/(```|~~~)[\s\S]*?(?:\1|$)/g, " ");
  // Latin words of one or two letters (eu, db) are too short to tell a shared name from a coincidence.
  const named = objectTokens(units(prose), lex).filter(
    (t) =>
      !lex.generic.has(t) &&
      !/^[a-z]{1,2}$/.test(t) &&
      lex.verbs.match(units(t), 0, lex.fillerUnits) === null &&
      !isLead(t, lex),
  );
  // Hiragana and Hangul words are mostly grammar here (します, 확인해): they name nothing.
  const words = new Set(named.filter((t) => !KANA_OR_HANGUL_WORD.test(t)).map(stem));
  if (replyWords.size >= WORDS_LIMIT) replyWords.clear();
  replyWords.set(text, words);
  return words;
}

/** A whole word that only opens a promise (我去, 我来): it names nothing. */
function isLead(token: string, lex: ReturnType<typeof lexicon>): boolean {
  const seq = units(token);
  return lex.leads.match(seq, 0, lex.fillerUnits)?.end === seq.length;
}

/**
 * The replies share a name, or a concept (config, log, 层) while not both naming files or symbols of their own:
 * "jest.config.js" and "REDIS_URL" both being config does not make them one thing.
 */
function sharesWord(a: string, b: string): boolean {
  const left = wordsOf(a);
  const right = wordsOf(b);
  const lex = lexicon();
  conceptNames ??= new Set(lex.concepts.values());
  let concept = false;
  for (const w of left) {
    if (!right.has(w)) continue;
    if (!conceptNames.has(w)) return true;
    concept = true;
  }
  if (!concept) return false;
  const own = (x: ReadonlySet<string>, y: ReadonlySet<string>) =>
    [...x].some((w) => (IDENTIFIER.test(w) || /^\d{3,}$/.test(w)) && !y.has(w));
  return !(own(left, right) && own(right, left));
}

let conceptNames: ReadonlySet<string> | null = null;

/** The reply names a file or symbol that none of the others name. */
function ownNames(text: string, others: readonly string[]): boolean {
  const seen = others.map(wordsOf);
  return [...wordsOf(text)].some((w) => IDENTIFIER.test(w) && !seen.some((o) => o.has(w)));
}

/**
 * Similarity of two classified replies: the best pair of their intents, or near-identical text as a fallback.
 * `adjacent`: the two are consecutive promises of one run (see ADJACENT_SAME_ACTION), with the window's earlier
 * promises: when both share a name with one of them, each names part of one object ("README 的安装步骤" / "README" /
 * "安装步骤").
 */
export function classSimilarity(
  a: ReplyClass,
  b: ReplyClass,
  textA: string,
  textB: string,
  adjacent: { earlier: readonly string[] } | null = null,
): number {
  if (differentFolders(textA, textB)) return 0;
  let best = 0;
  // "然后我把 X 改成 Y" after "我先备份 X": a further step of another kind is the next step, not the same promise.
  const further = FURTHER_STEP.test(normalizeText(textB).trim());
  for (const x of a.intents) {
    for (const y of b.intents) {
      if (further && x.action !== y.action) continue;
      best = Math.max(best, intentSimilarity(x, y));
      if (adjacent && best < SIMILARITY_THRESHOLD) {
        best = Math.max(best, adjacentSimilarity(x, y, textA, textB, adjacent.earlier, further));
      }
    }
  }
  if (best < 1 && fallbackEligible(a) && fallbackEligible(b) && sameWords(textA, textB)) best = 1;
  return best;
}

/**
 * Two replies may sit in one run: some pair of their actions is compatible, or one of them names no action the
 * lexicons read. "Read parser.go" and "edit parser.go" are two steps, even when a third reply resembles both.
 */
export function compatibleReplies(a: ReplyClass, b: ReplyClass): boolean {
  if (a.intents.length === 0 || b.intents.length === 0) return true;
  return a.intents.some((x) => b.intents.some((y) => actionAffinity(x.action, y.action) > 0));
}

/** Replies the near-identical fallback may join: promises, and replies in a language the lexicons do not read. */
export function fallbackEligible(c: ReplyClass): boolean {
  return c.kind === "promise" || c.kind === "unknown-language";
}

export function replySimilarity(a: string, b: string): number {
  return classSimilarity(classifyReply(a), classifyReply(b), a, b);
}

export function isSimilarReply(a: string, b: string): boolean {
  return replySimilarity(a, b) >= SIMILARITY_THRESHOLD;
}

/**
 * The whole replies, or their last sentences (where a promise usually stands), are near-identical; or one last
 * sentence is the other's with a short opening added ("少々お待ちください、テストを確認します" / "テストを確認します").
 */
function sameWords(a: string, b: string): boolean {
  // "web1 디스크를 확인하겠습니다" / "web2 …": the same words about differently named things.
  if (differentNames(a, b)) return false;
  const x = lastSentence(a);
  const y = lastSentence(b);
  return nearIdentical(a, b) >= NEAR_IDENTICAL || nearIdentical(x, y) >= NEAR_IDENTICAL || endsAlike(x, y);
}

/** Bigrams of the shorter sentence at least this many, all but one found in the longer one, which ends the same way. */
const CONTAINED_BIGRAMS = 8;

function endsAlike(a: string, b: string): boolean {
  const x = squash(a);
  const y = squash(b);
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  const grams = bigrams(short);
  if (grams.size < CONTAINED_BIGRAMS || short.length * 2 < long.length) return false;
  const tail = long.slice(-short.length - 2);
  let missing = 0;
  for (const g of grams) if (!tail.includes(g)) missing++;
  return missing <= 1;
}

const PATH = /[\w.-]+(?:\/[\w.-]+)+/g;

/** "auth/health.go" / "cart/health.go": one file name in different folders, and no path the two share. */
function differentFolders(a: string, b: string): boolean {
  const folders = (text: string) => {
    const out = new Map<string, Set<string>>();
    for (const path of text.toLowerCase().match(PATH) ?? []) {
      const cut = path.lastIndexOf("/");
      const name = path.slice(cut + 1);
      out.set(name, (out.get(name) ?? new Set()).add(path.slice(0, cut)));
    }
    return out;
  };
  const left = folders(a);
  if (left.size === 0) return false;
  const right = folders(b);
  let differ = false;
  for (const [name, dirs] of left) {
    const others = right.get(name);
    if (!others) continue;
    if ([...dirs].some((d) => others.has(d))) return false;
    differ = true;
  }
  return differ;
}

/** Latin names with a digit, dot, slash or underscore in each text, none shared. */
function differentNames(a: string, b: string): boolean {
  const names = (text: string) =>
    new Set((text.toLowerCase().match(/[a-z0-9][\w./-]*/g) ?? []).filter((w) => /[a-z]/.test(w) && /[\d./_]/.test(w)));
  const left = names(a);
  const right = names(b);
  return left.size > 0 && right.size > 0 && ![...left].some((n) => right.has(n));
}

function lastSentence(text: string): string {
  const parts = text
    .trim()
    .split(/(?<=[.!?])(?=\s|$)|(?<=[。！？])/u)
    .filter((p) => squash(p).length > 0);
  return parts.at(-1) ?? "";
}

/** Dice over character bigrams of the text without spaces and punctuation; 1 for equal texts. */
export function nearIdentical(a: string, b: string): number {
  const x = squash(a);
  const y = squash(b);
  if (x === y) return x.length > 0 ? 1 : 0;
  return dice(bigrams(x), bigrams(y));
}

/** Dice of two sets: twice the shared members over both sizes; 0 when either is empty. */
export function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const g of a) if (b.has(g)) shared++;
  return (2 * shared) / (a.size + b.size);
}

export function squash(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, "");
}

function bigrams(text: string): Set<string> {
  const chars = [...text];
  const out = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) out.add(`${chars[i]}${chars[i + 1]}`);
  return out;
}
