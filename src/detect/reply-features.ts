/**
 * Language-agnostic features of a reply for the trained promise model: hashed character n-grams of its NFKC-folded
 * closing sentences and of the whole reply, the reply's shape and the rules' reading of it. No new phrase lists: what a
 * language's promises look like comes from the training data.
 */

import { CJK } from "./han.js";
import { classifyReply } from "./reply-classifier.js";

/** Feature slots: hashed features fall into this many (a power of two). */
export const FEATURE_BITS = 18;
const MASK = (1 << FEATURE_BITS) - 1;

/** Sparse features: slot numbers and their values, parallel. */
export interface Features {
  slots: number[];
  values: number[];
}

const CODE_BLOCK = /(```|~~~)[\s\S]*?(?:\1|$)/g;
const INLINE_CODE = /`[^`\n]{1,120}`/g;
/** Where a sentence ends: after a full stop and a space, or after a Chinese or Japanese full stop (no space follows). */
const SENTENCE_END = /(?<=[.!?…:：])\s+|(?<=[。！？])\s*|\n+/u;
const CLOSING_CHARS = 240;
const WHOLE_CHARS = 480;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a of `text`'s UTF-16 units, continued from `h`. */
function fnv(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** FNV-1a of the namespace and the text, folded into `2^bits` slots. */
export function hashSlot(namespace: string, text: string, bits: number): number {
  return (fnv(fnv(FNV_OFFSET, namespace), text) >>> 0) & ((1 << bits) - 1);
}

/** Folded text: NFKC, lower case, digits as 0, code as placeholders, runs of spaces as one. */
export function foldText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(CODE_BLOCK, " ⟦code⟧ ")
    .replace(INLINE_CODE, "⟦id⟧")
    .replace(/\d+/g, "0")
    .replace(/[ \t]+/g, " ")
    .trim();
}

/** The sentences (or lines) of a text, empty ones left out. */
function sentencesOf(text: string): string[] {
  return text.split(SENTENCE_END).filter((s) => s.trim() !== "");
}

/** The sentences before the last one, as wide as `textWidth` counts them (0 for a reply of one sentence). */
export function leadWidth(text: string): number {
  const sentences = sentencesOf(text.trim());
  return sentences.slice(0, -1).reduce((width, sentence) => width + textWidth(sentence), 0);
}

/** The last sentences of the folded text, up to about `CLOSING_CHARS`: where a reply's promise stands. */
export function closingOf(folded: string): string {
  return closingOfSentences(sentencesOf(folded));
}

/** The closing sentences joined, as `closingOf` returns them. */
export function closingText(closingSentences: readonly string[]): string {
  return closingSentences.join(" ").trim().slice(-CLOSING_CHARS);
}

function closingOfSentences(sentences: readonly string[]): string {
  return closingText(lastSentences(sentences));
}

/** The sentences `closingOf` takes, first to last. */
export function closingSentencesOf(folded: string): string[] {
  return lastSentences(sentencesOf(folded));
}

function lastSentences(sentences: readonly string[]): string[] {
  let length = 0;
  let from = sentences.length;
  while (from > 0 && length < CLOSING_CHARS / 2) length += (sentences[--from] as string).length + 1;
  return sentences.slice(from);
}

/** What a namespace's features are called when they are explained. */
const NAMESPACE_WORDS: Record<string, string> = {
  c: "closing",
  l: "last sentence",
  w: "reply",
  s: "shape",
  u: "user",
  r: "rules",
};

/**
 * Hashed counts in blocks (the closing sentences' n-grams, the last sentence's, the reply's, the user's, the
 * indicators). Each block is scaled to its own length, so a long reply's many n-grams do not drown its closing ones.
 */
class FeatureBag {
  readonly blocks: { weight: number; counts: Map<number, number> }[] = [];
  /** `names`: filled with each slot's first feature in words, for explanations. */
  constructor(readonly names: Map<number, string> | null = null) {}
  block(weight: number): Map<number, number> {
    const counts = new Map<number, number>();
    this.blocks.push({ weight, counts });
    return counts;
  }
  add(counts: Map<number, number>, namespace: string, gram: string): void {
    this.count(counts, hashSlot(namespace, gram, FEATURE_BITS), namespace, gram);
  }
  /** Every n-gram of the text's characters, min to max, hashed as `hashSlot` hashes it without building its string. */
  grams(namespace: string, text: string, min: number, max: number, weight: number): void {
    const counts = this.block(weight);
    const chars = Array.from(` ${text} `);
    for (let n = min; n <= max; n++) {
      const prefix = fnv(FNV_OFFSET, `${namespace}${n}`);
      for (let i = 0; i + n <= chars.length; i++) {
        let h = prefix;
        for (let k = i; k < i + n; k++) h = fnv(h, chars[k] as string);
        const slot = (h >>> 0) & MASK;
        if (this.names === null) counts.set(slot, (counts.get(slot) ?? 0) + 1);
        else this.count(counts, slot, `${namespace}${n}`, chars.slice(i, i + n).join(""));
      }
    }
  }
  private count(counts: Map<number, number>, slot: number, namespace: string, gram: string): void {
    counts.set(slot, (counts.get(slot) ?? 0) + 1);
    if (this.names !== null && !this.names.has(slot)) {
      const words = NAMESPACE_WORDS[namespace.charAt(0)] ?? namespace;
      this.names.set(slot, namespace.length > 1 ? `${words} "${gram.trim()}"` : `${words} ${gram}`);
    }
  }
  /** Log-scaled counts, each block scaled to its weight's length, summed per slot. */
  features(): Features {
    const sums = new Map<number, number>();
    for (const { weight, counts } of this.blocks) {
      let norm = 0;
      for (const count of counts.values()) norm += Math.log1p(count) ** 2;
      if (norm === 0) continue;
      const scale = weight / Math.sqrt(norm);
      for (const [slot, count] of counts) sums.set(slot, (sums.get(slot) ?? 0) + Math.log1p(count) * scale);
    }
    return { slots: [...sums.keys()], values: [...sums.values()] };
  }
}

/**
 * Shape of the reply: how it ends, lists, code (as hashed indicator features). Not its length: every reply of 1,000
 * characters or more in the training sets is a promise, which real long reports are not.
 */
function shapeOf(raw: string, folded: string, closing: string): string[] {
  const end = closing.trimEnd().slice(-1);
  const shape = [
    `end:${/[.。]/.test(end) ? "." : /[?？]/.test(end) ? "?" : /[:：]/.test(end) ? ":" : /[!！]/.test(end) ? "!" : end === "…" ? "…" : "other"}`,
  ];
  const endsWithFence = /(```|~~~)\s*$/.test(raw.trimEnd());
  if (/(```|~~~)/.test(raw)) shape.push(endsWithFence ? "code:last" : "code");
  if (/^\s*(?:[-*•]|\d+[.)])\s/m.test(raw)) shape.push("list");
  if (/^\s*#{1,6}\s/m.test(raw)) shape.push("heading");
  if (/\*\*[^*]+\*\*/.test(raw)) shape.push("bold");
  if (/⟦code⟧\s*$/.test(folded)) shape.push("ends-with-code");
  return [...shape, ...lastCodeBlockShape(raw, endsWithFence)];
}

const FENCED_BLOCK = /(```|~~~)([^\n]*)\n([\s\S]*?)(?:\1|$)/g;
const SHELL_TAGS = /^(?:bash|sh|shell|shell-session|console|terminal|zsh|fish|powershell|pwsh|ps1|cmd|bat)$/;

/**
 * The last fenced block: whether it is tagged as a shell, where it stands, the first word of its first line (the
 * command a promise shows instead of running: `psql`, `cargo`), how many lines, and how the text before it ends. A
 * command after a colon is what the agent is about to run as often as it is an answer's code.
 */
function lastCodeBlockShape(raw: string, atEnd: boolean): string[] {
  const last = [...raw.matchAll(FENCED_BLOCK)].at(-1);
  if (last === undefined) return [];
  const tag = (last[2] ?? "").trim().toLowerCase();
  const kind = tag === "" ? "none" : SHELL_TAGS.test(tag) ? "shell" : "other";
  const lines = (last[3] ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const command = (lines[0] ?? "").replace(/^\$\s*/, "").split(/\s+/)[0] ?? "";
  const before = raw.slice(0, last.index).trimEnd();
  const shape = [`codelang:${kind}`, `codelang:${kind}|${atEnd ? "end" : "mid"}`];
  if (command !== "") shape.push(`codecmd:${command.toLowerCase().replace(/\d+/g, "0").slice(0, 24)}`);
  shape.push(`codelines:${lines.length <= 1 ? "1" : lines.length <= 3 ? "2" : "many"}`);
  shape.push(`code-before:${/[:：]$/.test(before) ? ":" : /[.。]$/.test(before) ? "." : "other"}|${kind}`);
  return shape;
}

/**
 * A nudge ("continue", "and?", "weiter", "继续") is short; a question or an answer says more. A Chinese, Japanese or
 * Korean character counts twice: "为什么本地不会卡住？" asks as much as "why does it not hang locally?".
 */
export const NUDGE_CHARS = 16;
const WIDE_CHARS = new RegExp(CJK.source, "gu");

/** A text's length with each Chinese, Japanese or Korean character counted twice. */
export function textWidth(text: string): number {
  return text.length + (text.match(WIDE_CHARS)?.length ?? 0);
}

/** What the user's message before the reply says about it: a nudge, a question, an answer, or none. */
export function userShapeOf(user: string | null): {
  shape: "none" | "nudge" | "nudge?" | "question" | "statement";
  folded: string;
} {
  if (user === null) return { shape: "none", folded: "" };
  const folded = foldText(user);
  const asks = /[?？]\s*$/.test(folded);
  const shape = textWidth(folded) <= NUDGE_CHARS ? (asks ? "nudge?" : "nudge") : asks ? "question" : "statement";
  return { shape, folded };
}

/**
 * The reply's features: closing sentences (n-grams 1–5), the last sentence (1–4), the reply's end (3-grams), the user's
 * message it answers (1–3), and as indicators its shape, the rules' reading of it and the user's message's shape
 * (alone and with how the reply ends).
 */
export function replyFeatures(
  raw: string,
  user: string | null = null,
  names: Map<number, string> | null = null,
): Features {
  const folded = foldText(raw);
  const sentences = sentencesOf(folded);
  const closing = closingOfSentences(sentences);
  const bag = new FeatureBag(names);
  bag.grams("c", closing, 1, 5, 1);
  // The last sentence (or line), up to 200 characters.
  bag.grams("l", (sentences.at(-1) ?? "").slice(-200), 1, 4, 1);
  bag.grams("w", folded.slice(-WHOLE_CHARS), 3, 3, 0.5);
  const asked = userShapeOf(user);
  if (asked.folded) bag.grams("u", asked.folded.slice(-200), 1, 3, 0.5);
  const indicators = bag.block(0.5);
  const shape = shapeOf(raw, folded, closing);
  for (const s of shape) bag.add(indicators, "s", s);
  // The hand-written rules' reading, as features: what they call the reply, in which language, which actions.
  const rules = classifyReply(raw);
  bag.add(indicators, "r", `kind:${rules.kind}`);
  bag.add(indicators, "r", `kind:${rules.kind}|${rules.lang}`);
  for (const intent of rules.intents) bag.add(indicators, "r", `action:${intent.action}`);
  bag.add(indicators, "u", asked.shape);
  bag.add(indicators, "u", `${asked.shape}|${shape[0]}`);
  return bag.features();
}
