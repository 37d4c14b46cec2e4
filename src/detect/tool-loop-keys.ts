import { FILE_ISSUE_CODES } from "../../reducers/contract/tool-details.js";
import type { ToolResultRef } from "../../reducers/state.js";

/**
 * Canonical forms for the tool-loop detector. A call is its tool name and arguments compared as data (key order and
 * JSON formatting ignored; whitespace inside strings counts); a result is its text and structured outcome with the parts that change on every run left
 * out: timestamps, clock times, durations, epoch numbers, temp names, PIDs, ANSI colours, and for the kit's denials
 * everything but the rule that fired (so `previouslyBlocked`, `scopeCount` and the first denial's guidance do not
 * count).
 */

/** A copy with every object's keys sorted (and undefined values left out), for JSON. */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = canonical(v);
  }
  return out;
}

/**
 * `sortedCopy(value)` as JSON sees it, copying only where something changes: a plain object whose keys are already
 * in order (none with a leading digit: integer keys are ordered apart) and an array whose items need no change are
 * returned as they are, as parsed arguments mostly are.
 */
function canonical(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (canonical(value[i]) !== value[i]) return sortedCopy(value);
    return value;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return sortedCopy(value);
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const first = key.charCodeAt(0);
    if ((first >= 48 && first <= 57) || (i > 0 && !(key > (keys[i - 1] as string)))) return sortedCopy(value);
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined || canonical(v) !== v) return sortedCopy(value);
  }
  return value;
}

export function canonicalArgs(args: unknown): string {
  return JSON.stringify(canonical(args ?? {})) ?? "null";
}

export function callKey(tool: string, args: unknown): string {
  return `${tool}\u0000${canonicalArgs(args)}`;
}

const DIGIT = /\d/;
/** A field name word followed by what the field pattern needs after it (its `timestamp` and `uptime` hold `time`). */
const FIELD_NAME = /(?:duration|elapsed|took|latency|time|date|started|finished|ended|pid)[\w-]*"?\s*[:=]/i;
/** Generated ids and per-call counters: a message, run, session, request, call or trace id, a sequence number. */
const ID_FIELD =
  /(?:message|msg|run|session|request|call|trace|span|job|task|event|delivery|idempotency)[_-]?(?:id|key)\b|\b(?:seq|sequence|counter|attempt|invocation)\b/i;
const PID_WORD = /pid|process/i;
const TMP_WORD = /te?mp/i;
const hasDigit = (t: string) => DIGIT.test(t);

/**
 * Each pattern with a cheap test that any match needs (run on the text as it is at that step; no replacement adds a
 * digit), so a text without, say, a digit skips six of the ten passes with the same result.
 */
const VOLATILE: readonly [RegExp, string, (text: string) => boolean][] = [
  // Values of JSON or key=value fields named for times, durations and process ids.
  [
    /("?\b[\w-]*(?:duration|elapsed|took|latency|timestamp|time|date|started|finished|ended|uptime|pid)[\w-]*"?\s*[:=]\s*)("[^"\n]*"|[\d.]+[a-zµ]*)/gi,
    "$1<v>",
    (t) => FIELD_NAME.test(t),
  ],
  // Values of fields that hold generated ids or per-call counters.
  [
    /("?\b[\w-]*(?:(?:message|msg|run|session|request|call|trace|span|job|task|event|delivery|idempotency)[_-]?(?:id|key)|seq|sequence|counter|attempt|invocation)"?\s*[:=]\s*)("[^"\n]*"|[\w.:-]+)/gi,
    "$1<id>",
    (t) => ID_FIELD.test(t),
  ],
  [
    /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
    "<uuid>",
    (t) => t.includes("-") && hasDigit(t),
  ],
  [/\u001b\[[0-9;?]*[A-Za-z]/g, "", (t) => t.includes("\u001b[")],
  [
    /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g,
    "<time>",
    (t) => t.includes("-") && t.includes(":") && hasDigit(t),
  ],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?:\s?[AP]M)?\b/g, "<time>", (t) => t.includes(":") && hasDigit(t)],
  [/\b1[5-9]\d{8}(?:\d{3})?\b/g, "<epoch>", hasDigit],
  [
    /\b\d+(?:[.,]\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|m|mins?|minutes?|h|hrs?|hours?)\b/gi,
    "<duration>",
    hasDigit,
  ],
  [/\b(pid|process|ppid)(\s*[:=#]?\s*)\d+/gi, "$1$2<pid>", (t) => PID_WORD.test(t) && hasDigit(t)],
  [
    /(\/(?:tmp|var\/folders|private\/var)\/)[^\s'":,)]+/g,
    "$1<tmp>",
    (t) => t.includes("/tmp/") || t.includes("/var/folders/") || t.includes("/private/var/"),
  ],
  [/\b(tmp|temp)[-_.]?[\w-]*\d[\w-]*/gi, "<tmp>", (t) => TMP_WORD.test(t) && hasDigit(t)],
  [/[ \t]+$/gm, "", () => true],
];

export function stripVolatile(text: string): string {
  let out = text;
  for (const [pattern, replacement, mayMatch] of VOLATILE) {
    if (mayMatch(out)) out = out.replace(pattern, replacement);
  }
  return out.trim();
}

export function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (!block || typeof block !== "object") continue;
    const b = block as { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown };
    if (b.type === "text" && typeof b.text === "string") parts.push(b.text);
    else if (b.type === "image") parts.push(`[image ${String(b.mimeType)} ${String(b.data).length}]`);
  }
  return parts.join("\n");
}

function detailsOf(result: ToolResultRef): Record<string, unknown> {
  return typeof result.details === "object" && result.details !== null
    ? (result.details as Record<string, unknown>)
    : {};
}

/** The structured outcome a kit tool put in `details`, without counters and first-time guidance. */
function structuredOutcome(result: ToolResultRef): string | null {
  const d = detailsOf(result);
  if (d.code === "CONTEXT_ACCESS_DENIED") return `denied ${String(d.status)} ${String(d.rule)} ${String(d.path)}`;
  if (typeof d.code === "string" && (FILE_ISSUE_CODES as readonly string[]).includes(d.code)) {
    return `issue ${d.code} ${String(d.path)} ${String(d.size)} ${String(d.mtimeMs)}`;
  }
  return null;
}

const keys = new WeakMap<ToolResultRef, string>();

/** The result as compared: same key, same result. Memoised per result. */
export function resultKey(result: ToolResultRef): string {
  let key = keys.get(result);
  if (key === undefined) {
    const flag = result.isError ? "error" : "ok";
    key = `${flag}\u0000${structuredOutcome(result) ?? stripVolatile(resultText(result.content))}`;
    keys.set(result, key);
  }
  return key;
}

const CHECK_TOOL = /(?:^|_)(?:build|test|tests|check|lint)$/i;
const FAILURE_TEXT =
  /\b[1-9]\d* (?:failed|failing|failures?|errors?)\b|\bFAIL(?:ED|URE)?\b|\bBUILD FAILED\b|\berror TS\d+|\bnpm ERR!|\berror\[E\d+\]|exit(?:ed)?(?: with)? (?:code|status) [1-9]|\bTests?:\s+[1-9]\d* failed|\bCompilation failed\b/;

/** A tool's own report of failure in a result that is not flagged as an error: `status` error/failed, `ok` false. */
function softFailure(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return v.status === "error" || v.status === "failed" || v.ok === false;
}

const softErrors = new WeakMap<ToolResultRef, boolean>();
const READS_FILES = new Set(["read", "grep", "find", "ls"]);

/** The result's text read as one JSON object (OpenClaw's `{"status":"error", …}`), failing softly. */
function softError(result: ToolResultRef): boolean {
  let soft = softErrors.get(result);
  if (soft === undefined) {
    soft = softFailure(result.details);
    // A file's contents are data: a read of a JSON file saying "status": "error" did not fail.
    if (!soft && !READS_FILES.has(result.tool)) {
      const text = resultText(result.content).trim();
      if (text.startsWith("{") && text.endsWith("}") && /"(?:status|ok)"/.test(text)) {
        try {
          soft = softFailure(JSON.parse(text));
        } catch {
          soft = false;
        }
      }
    }
    softErrors.set(result, soft);
  }
  return soft;
}

/**
 * A failed result: an error result, a tool's own `{"status":"error"}` / `{"ok":false}` answer, a build/test check
 * (`app_build`, `app_test`, …) whose details or output report a failure, a poll of something that does not exist, or
 * a call to a tool the host does not have.
 */
export function failedResult(result: ToolResultRef): boolean {
  if (result.isError || softError(result) || missingTarget(result)) return true;
  if (!CHECK_TOOL.test(result.tool)) return false;
  const status = detailsOf(result).status;
  if (status === "failed" || status === "error") return true;
  return FAILURE_TEXT.test(resultText(result.content));
}

const POLL_TOOL = /(?:^|[_-])(?:status|wait|poll)$|^(?:wait|poll)(?:[_-]|$)/i;
const POLL_ACTION = /^(?:poll|status|wait|log|logs|output)$/i;
const WAITING_TEXT =
  /\(no (?:new )?output(?: yet| recorded)?\)|\bno new output\b|\bstill running\b|\bnot (?:yet )?(?:finished|complete|completed|done|ready)\b|\bin progress\b/i;
const MISSING_TEXT =
  /\bno (?:such )?(?:session|process|job|task|run)s? (?:found|with|named|for)\b|\b(?:session|process|job|task|run) (?:\S+ )?(?:not found|does not exist|doesn't exist)\b|\bunknown (?:session|process|job|task|run)\b/i;

/** A call that polls something running: `process` poll/log actions, `*_status`/`*_wait`-like tools. */
function pollCall(tool: string, args: unknown): boolean {
  if (POLL_TOOL.test(tool)) return true;
  if (tool !== "process" || typeof args !== "object" || args === null) return false;
  const action = (args as Record<string, unknown>).action;
  return typeof action === "string" && POLL_ACTION.test(action);
}

/** A poll whose target does not exist: a failure, not a wait. */
function missingTarget(result: ToolResultRef): boolean {
  return pollCall(result.tool, result.args) && MISSING_TEXT.test(resultText(result.content));
}

/** A call that waits on something running: a known poll call, or a result that says there is no new output yet. */
export function waitingPoll(result: ToolResultRef): boolean {
  if (missingTarget(result)) return false;
  return pollCall(result.tool, result.args) || WAITING_TEXT.test(resultText(result.content));
}

const UNKNOWN_TOOL = /^Tool \S+ not found$/;

/** The host's answer to a call of a tool it does not have. */
export function unknownTool(result: ToolResultRef): boolean {
  return result.isError && UNKNOWN_TOOL.test(resultText(result.content).trim());
}

const MUTATING = new Set(["write", "edit"]);

/** A successful write or edit (the kit's own say `mutated`; failures carry a `code`). */
export function madeProgress(result: ToolResultRef): boolean {
  if (!MUTATING.has(result.tool) || result.isError || softError(result)) return false;
  const d = detailsOf(result);
  if (d.mutated !== undefined) return d.mutated === true;
  return typeof d.code !== "string";
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/**
 * The file states a write or edit names: its path, the text it leaves (a write's content, an edit's new text) and,
 * for an edit, the text it replaced. Null for other calls or arguments without them.
 */
export function fileStates(tool: string, args: unknown): { path: string; before: string | null; after: string } | null {
  if (!MUTATING.has(tool) || typeof args !== "object" || args === null) return null;
  const a = args as Record<string, unknown>;
  const path = str(a.path) ?? str(a.file_path) ?? str(a.filePath);
  if (path === null) return null;
  if (tool === "write") {
    const content = str(a.content);
    return content === null ? null : { path, before: null, after: `=${content}` };
  }
  const edits = Array.isArray(a.edits) ? a.edits : [a];
  const before: string[] = [];
  const after: string[] = [];
  for (const edit of edits) {
    if (typeof edit !== "object" || edit === null) return null;
    const e = edit as Record<string, unknown>;
    const oldText = str(e.oldText) ?? str(e.old_string) ?? str(e.oldString);
    const newText = str(e.newText) ?? str(e.new_string) ?? str(e.newString);
    if (oldText === null || newText === null) return null;
    before.push(oldText);
    after.push(newText);
  }
  return { path, before: `~${before.join("\u0000")}`, after: `~${after.join("\u0000")}` };
}

/**
 * Whether two arguments have the same canonical form (`canonicalArgs`), read as data: true or false when both are
 * plain JSON data (plain objects and arrays, strings, finite numbers, booleans, null; undefined members of objects
 * left out); undefined when something else is met first and only the keys can tell.
 */
export function sameArgs(a: unknown, b: unknown): boolean | undefined {
  return sameData(a ?? {}, b ?? {});
}

/** What JSON makes of a value: a primitive it prints, a container it walks, or something only the keys can tell. */
function kindOf(value: unknown): "primitive" | "array" | "object" | null {
  if (value === null) return "primitive";
  switch (typeof value) {
    case "string":
    case "boolean":
      return "primitive";
    case "number":
      return Number.isFinite(value) ? "primitive" : null;
    case "object": {
      // JSON prints what a `toJSON` method returns.
      if (typeof (value as { toJSON?: unknown }).toJSON === "function") return null;
      if (Array.isArray(value)) return "array";
      const proto = Object.getPrototypeOf(value);
      return proto === Object.prototype || proto === null ? "object" : null;
    }
    default:
      return null;
  }
}

function sameData(a: unknown, b: unknown): boolean | undefined {
  if (a === b) return true;
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka === null || kb === null) return undefined;
  if (ka !== kb) return false;
  // Strings, booleans, null and finite numbers (0 and -0 print alike).
  if (ka === "primitive") return a === b;
  if (ka === "array") {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) {
      const same = sameData(x[i], y[i]);
      if (same !== true) return same;
    }
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const key of Object.keys(y)) {
    const v = y[key];
    if (v === undefined) continue;
    if (key === "__proto__" || kindOf(v) === null) return undefined;
    count++;
  }
  for (const key of Object.keys(x)) {
    const v = x[key];
    if (v === undefined) continue;
    if (key === "__proto__") return undefined;
    count--;
    const w = Object.hasOwn(y, key) ? y[key] : undefined;
    if (w === undefined) return kindOf(v) === null ? undefined : false;
    const same = sameData(v, w);
    if (same !== true) return same;
  }
  return count === 0;
}
