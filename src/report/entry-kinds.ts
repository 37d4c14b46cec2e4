import { keepsBeforeMarker } from "../../projections/context-in-force.js";
import type { KitRecord } from "../../reducers/contract/events.js";
import { denialOf } from "../../reducers/denials.js";
import { isHostEcho } from "../../reducers/host-echo.js";
import { kitRecordOf, kitRecordProblem } from "../fold/kit-records.js";
import { isCancelledResult, nestedCallsOf, textOf } from "../fold/to-event.js";
import type { AgentMessage, SessionEntry } from "../log/entry-types.js";
import { entryMessage } from "../tree/host-context.js";

import { FLAG, MSG } from "./entry-flags.js";

export { FLAG, MSG, MSG_MASK } from "./entry-flags.js";

const KIT_NAMES: Record<KitRecord["type"], string> = {
  recoveryMarker: "kit: recovery marker",
  stallStop: "kit: stall stop",
  completionReport: "kit: completion report",
  verificationIncomplete: "kit: VERIFICATION_INCOMPLETE",
  policyAllowed: "kit: policy allowed",
  toolLoopMarker: "kit: tool-loop marker",
  toolLoopStop: "kit: tool-loop stop",
  rootGuidance: "kit: root guidance",
  requestDigest: "kit: request digest",
  nestedDenial: "kit: nested call denied",
};

export const PREVIEW_CHARS = 100;

export interface EntryFacts {
  kind: string;
  flags: number;
  preview: string;
  record: KitRecord | null;
}

function messageCode(message: AgentMessage | null): number {
  if (message === null) return MSG.none;
  switch (message.role) {
    case "user":
      return MSG.user;
    case "assistant":
      return MSG.assistant;
    case "toolResult":
      return MSG.toolResult;
    case "custom":
      return keepsBeforeMarker(message.customType) ? MSG.customKept : MSG.custom;
    default:
      return MSG.other;
  }
}

/** The characters `\s` matches in a regular expression (and `trim` removes). */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Code units of the preview being built (one preview at a time). */
let units: number[] = [];

/**
 * Whitespace collapsed, cut to `max` characters; never reads more than a few times `max` of a long text. The same as
 * `text.slice(0, 4 * max).replace(/\s+/g, " ").trim()` cut to `max` (its first `max - 1` characters and `…` when
 * longer), built one code unit at a time and stopped once past `max`. The result is one flat string, one byte a
 * character when it can be: 100,000 previews are kept to the end of a report, and pieces of a longer text (two bytes
 * a character when that text holds any wider character) would take several times the room.
 */
export function shorten(text: string, max = PREVIEW_CHARS): string {
  const end = Math.min(text.length, max * 4);
  const out = units;
  out.length = 0;
  let space = false;
  for (let i = 0; i < end && out.length <= max; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      space = out.length > 0;
      continue;
    }
    if (space) {
      out.push(32);
      space = false;
    }
    out.push(c);
  }
  if (out.length > max) {
    out.length = Math.max(max - 1, 0);
    out.push(0x2026);
  }
  if (out.length <= 8192) return String.fromCharCode.apply(null, out);
  let long = "";
  for (let k = 0; k < out.length; k += 8192) long += String.fromCharCode.apply(null, out.slice(k, k + 8192));
  units = [];
  return long;
}

/** The first `max` characters of `JSON.stringify(value)` (a tool call's arguments, a custom entry's data). */
export function compactJson(value: unknown, max = PREVIEW_CHARS * 2): string {
  if (value === undefined) return "";
  try {
    // Long strings cut first: a `write` call's arguments hold a whole file, and only the start is shown.
    return JSON.stringify(withShortStrings(value, max + 2, 0))?.slice(0, max) ?? "";
  } catch {
    return String(value);
  }
}

/**
 * The value with every string longer than `keep` cut to `keep` characters (never inside a surrogate pair), or the
 * value itself when it holds nothing to cut or anything but plain data. Its JSON agrees with the value's on the first
 * `keep - 1` characters: a cut string still prints at least `keep` characters before its closing quote.
 */
function withShortStrings(value: unknown, keep: number, depth: number): unknown {
  if (typeof value === "string") {
    if (value.length <= keep) return value;
    const end = isHighSurrogate(value.charCodeAt(keep - 1)) ? keep + 1 : keep;
    return value.slice(0, end);
  }
  if (value === null || typeof value !== "object" || depth > 64) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const short = withShortStrings(item, keep, depth + 1);
      if (short !== item) {
        out ??= value.slice();
        out[i] = short;
      }
    }
    return out ?? value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype || "toJSON" in value) return value;
  let out: Record<string, unknown> | null = null;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    // An own `__proto__` (JSON.parse makes one) cannot be set by assignment: such a value is printed whole.
    if (key === "__proto__") return value;
    const member = record[key];
    const short = withShortStrings(member, keep, depth + 1);
    if (short !== member) {
      out ??= { ...record };
      out[key] = short;
    }
  }
  return out ?? value;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function messagePreview(message: AgentMessage): string {
  switch (message.role) {
    case "assistant": {
      const content = Array.isArray(message.content) ? message.content : [];
      const calls = content.flatMap((b) => (b?.type === "toolCall" ? [`${b.name}(${compactJson(b.arguments)})`] : []));
      const text = textOf(message);
      const thinking = text || content.some((b) => b?.type !== "thinking") ? "" : "(thinking only)";
      const error = message.errorMessage ? ` [error: ${message.errorMessage}]` : "";
      return [text || thinking, calls.length > 0 ? `→ ${calls.join(", ")}` : "", error].filter(Boolean).join(" ");
    }
    case "bashExecution":
      return `$ ${message.command}`;
    case "branchSummary":
    case "compactionSummary":
      return message.summary;
    case "toolResult": {
      const nested = nestedCallsOf((message as { nestedCalls?: unknown }).nestedCalls);
      const text = textOf(message);
      if (!nested) return text;
      const calls = nested.calls.map((c) => `${c.name} ${c.status}`).join(", ");
      return `[nested: ${calls}${nested.complete ? "" : "; record incomplete"}] ${text}`;
    }
    default: {
      const text = textOf(message);
      const images = Array.isArray(message.content) && message.content.some((b) => b?.type === "image");
      return images ? `${text} [image]`.trim() : text;
    }
  }
}

function otherPreview(entry: SessionEntry): string {
  switch (entry.type) {
    case "compaction":
      return `${entry.summary} (keeps from ${entry.firstKeptEntryId}, ~${entry.tokensBefore} tokens before)`;
    case "branch_summary":
      return entry.summary || "(empty summary: not sent)";
    case "custom":
      return compactJson(entry.data);
    case "label":
      return entry.label ? `${entry.targetId} ← "${entry.label}"` : `${entry.targetId}: label cleared`;
    case "model_change":
      return `${entry.provider}/${entry.modelId}`;
    case "thinking_level_change":
      return entry.thinkingLevel;
    case "session_info":
      return entry.name ?? "";
    default: {
      const { id: _id, parentId: _parent, timestamp: _time, type: _type, ...rest } = entry as SessionEntry;
      return compactJson(rest);
    }
  }
}

function kindOf(entry: SessionEntry, message: AgentMessage | null, record: KitRecord | null, invalid: boolean): string {
  if (record) return KIT_NAMES[record.type];
  if (invalid) return `invalid kit entry · ${entry.type}`;
  if (entry.type === "message" && message) {
    if (message.role === "toolResult") return `toolResult · ${message.toolName}`;
    return message.role;
  }
  if (entry.type === "custom" || entry.type === "custom_message") return `${entry.type} · ${entry.customType}`;
  return entry.type;
}

/** The same text as one flat string, one byte a character when it can be (not pieces of a longer text). */
export function compactCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** Role or type, flags and a one-line preview of an entry, as the report lists it. */
export function entryFacts(entry: SessionEntry): EntryFacts {
  const message = entryMessage(entry);
  const record = kitRecordOf(entry);
  const problem = record ? null : kitRecordProblem(entry);
  let flags = messageCode(message);
  if (entry.type === "compaction") flags |= FLAG.compaction;
  if (record) flags |= FLAG.kit;
  if (record?.type === "nestedDenial") flags |= FLAG.denial;
  if (problem !== null) flags |= FLAG.kitInvalid;
  if (message?.role === "toolResult") {
    if (message.isError && !isCancelledResult(message.content)) flags |= FLAG.error;
    if (denialOf(message.details)) flags |= FLAG.denial;
  }
  if (message?.role === "assistant" && (message.stopReason === "error" || message.errorMessage)) flags |= FLAG.error;
  if (message?.role === "assistant" && isHostEcho(message.provider, message.model)) flags |= FLAG.hostEcho;
  const body = message ? messagePreview(message) : otherPreview(entry);
  const preview = shorten(problem !== null ? `ignored (${problem}): ${body}` : body);
  return { kind: kindOf(entry, message, record, problem !== null), flags, preview, record };
}
