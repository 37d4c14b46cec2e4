import type { Diagnostic } from "./diagnostics.js";
import type { SessionEntry, SessionHeader } from "./entry-types.js";

export interface RecordPosition {
  line: number;
  byteOffset: number;
}

/** A line the host loses on load, with what could be recovered of it to explain the loss. */
export interface DroppedRecord extends RecordPosition {
  code: "E_JSON" | "E_TWO_RECORDS" | "E_NUL" | "E_LINE_TOO_LONG" | "E_NOT_OBJECT" | "E_SCHEMA";
  ids: string[];
  types: string[];
}

export interface SessionLog {
  file: string;
  header: SessionHeader | null;
  /** The header's format version before the in-memory migration (1 when absent). */
  sourceVersion: number;
  /** What the host sees: every entry after the header, migrated to v3 in memory. Empty when the host would not load the file. */
  entries: SessionEntry[];
  /** Where each entry of `entries` stands in the file. */
  positions: RecordPosition[];
  diagnostics: Diagnostic[];
  dropped: DroppedRecord[];
  /** True when the host treats the file as empty and would overwrite it with a fresh header on open. */
  unusable: boolean;
  bytes: number;
  lines: number;
  endsWithNewline: boolean;
}
