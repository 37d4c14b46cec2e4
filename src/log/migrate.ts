import { diagnostic } from "./diagnostics.js";
import type { RecordPosition, SessionLog } from "./session-log.js";

interface Parsed {
  value: Record<string, unknown>;
  at: RecordPosition;
  hostIndex: number;
}

/**
 * Brings v1 and v2 records to v3 in memory, as the host's migration does, without touching the file. Ids that v1
 * lacks are derived from the record's position, so two reads of the same file agree (the host picks random ids).
 */
export function migrateToV3(log: SessionLog, records: Parsed[]): Parsed[] {
  const version = log.sourceVersion;
  if (version >= 3) return records;
  const header = records[0];
  if (header) {
    const what = version < 2 ? "ids and parent links derived from record order" : "hookMessage roles renamed";
    log.diagnostics.push(diagnostic("I_MIGRATED", header.at, `format v${version} read as v3 in memory (${what})`));
  }
  if (version < 2) addTreeLinks(log.header?.id ?? "", records);
  for (const record of records) {
    const message = record.value.message as Record<string, unknown> | undefined;
    if (record.value.type === "message" && message?.role === "hookMessage") {
      record.value.message = { ...message, role: "custom" };
    }
  }
  return records;
}

function addTreeLinks(sessionId: string, records: Parsed[]): void {
  const used = new Set<string>();
  const byHostIndex = new Map<number, Parsed>();
  let previous: string | null = null;
  for (const record of records) {
    byHostIndex.set(record.hostIndex, record);
    if (record.value.type === "session") continue;
    const id = positionalId(sessionId, record.hostIndex, used);
    record.value.id = id;
    record.value.parentId = previous;
    previous = id;
  }
  for (const record of records) {
    const value = record.value;
    if (value.type !== "compaction" || typeof value.firstKeptEntryIndex !== "number") continue;
    const target = byHostIndex.get(value.firstKeptEntryIndex);
    const { firstKeptEntryIndex: _dropped, ...rest } = value;
    if (target && target.value.type !== "session") rest.firstKeptEntryId = target.value.id;
    record.value = rest;
  }
}

function positionalId(sessionId: string, index: number, used: Set<string>): string {
  let salt = 0;
  for (;;) {
    const id = fnv1a(`${sessionId}\u0000${index}\u0000${salt}`);
    if (!used.has(id)) {
      used.add(id);
      return id;
    }
    salt++;
  }
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
