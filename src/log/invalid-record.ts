import type { Diagnostic } from "./diagnostics.js";
import type { SessionEntry } from "./entry-types.js";

/** The type given to a record that failed its schema: unknown to the kit, so reducers and views ignore it. */
export const INVALID_RECORD_TYPE = "context-kit:invalid-record";

/**
 * What stands in for a record that failed its schema. The host keeps every parsed object as a node of the tree, so
 * the stand-in keeps the record's place (id, parent, file order) and drops its content: nothing malformed reaches the
 * reducers or the projections as if it were valid. The record's own type is kept for reports.
 */
export function invalidRecordStub(value: Record<string, unknown>, id: string): SessionEntry {
  const stub: Record<string, unknown> = {
    type: INVALID_RECORD_TYPE,
    id,
    parentId: typeof value.parentId === "string" ? value.parentId : null,
    recordType: typeof value.type === "string" ? value.type : null,
  };
  if (typeof value.timestamp === "string") stub.timestamp = value.timestamp;
  return stub as unknown as SessionEntry;
}

/** The records of a log that failed their schema, as diagnostics. */
export function invalidRecords(log: { diagnostics: readonly Diagnostic[] }): Diagnostic[] {
  return log.diagnostics.filter((d) => d.code === "E_SCHEMA");
}

/** Records nested deeper than this are left out: printing or cloning them would exhaust the stack. */
export const MAX_NESTING = 512;

/**
 * Whether a parsed value nests arrays and objects more than `max` levels deep. The walk stops at `max` levels, so it
 * recurses at most that deep whatever the value's depth.
 */
export function nestsDeeper(value: unknown, max = MAX_NESTING): boolean {
  return value !== null && typeof value === "object" && deeper(value, 0, max);
}

function deeper(node: object, depth: number, max: number): boolean {
  if (depth >= max) return true;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child: unknown = node[i];
      if (child !== null && typeof child === "object" && deeper(child, depth + 1, max)) return true;
    }
    return false;
  }
  for (const key in node) {
    const child: unknown = (node as Record<string, unknown>)[key];
    if (child !== null && typeof child === "object" && deeper(child, depth + 1, max)) return true;
  }
  return false;
}

export function isInvalidRecordStub(entry: { type: string }): boolean {
  return (entry.type as string) === INVALID_RECORD_TYPE;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

const LIST_CONTENT = new Set(["assistant", "toolResult"]);

/**
 * The record with absent content filled in the way the hosts read it (empty text, or no blocks), or null when there
 * is nothing to fill. A record that is valid once filled is kept (and reported): the hosts read it as empty. Any
 * other schema failure leaves the record out of state and views.
 */
export function withEmptyContent(value: Record<string, unknown>): Record<string, unknown> | null {
  if (value.type === "message" && isObject(value.message) && value.message.content == null) {
    const empty = LIST_CONTENT.has(String(value.message.role)) ? [] : "";
    return { ...value, message: { ...value.message, content: empty } };
  }
  if (value.type === "custom_message" && value.content == null) return { ...value, content: "" };
  return null;
}
