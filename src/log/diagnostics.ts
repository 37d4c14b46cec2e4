export type Severity = "error" | "warning" | "info";

export type DiagnosticCode =
  | "E_READ"
  | "E_JSON"
  | "E_TWO_RECORDS"
  | "E_TRUNCATED_TAIL"
  | "E_NO_HEADER"
  | "E_BAD_HEADER"
  | "E_DUPLICATE_ID"
  | "E_MISSING_PARENT"
  | "E_CYCLE"
  | "E_SCHEMA"
  | "E_NOT_OBJECT"
  | "E_UTF8"
  | "E_NUL"
  | "E_LINE_TOO_LONG"
  | "W_LONG_LINE"
  | "W_UNKNOWN_TYPE"
  | "W_EXTRA_HEADER"
  | "W_NEWER_VERSION"
  | "I_MIGRATED";

export interface Diagnostic {
  line: number;
  byteOffset: number;
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  entryId?: string;
}

/** Codes after which the host treats the whole file as empty (and would overwrite it on open). */
export const FATAL_CODES: ReadonlySet<DiagnosticCode> = new Set(["E_READ", "E_NO_HEADER", "E_BAD_HEADER"]);

export function severityOf(code: DiagnosticCode): Severity {
  if (code.startsWith("E_")) return "error";
  if (code.startsWith("W_")) return "warning";
  return "info";
}

export function diagnostic(
  code: DiagnosticCode,
  at: { line: number; byteOffset: number },
  message: string,
  entryId?: string,
): Diagnostic {
  const d: Diagnostic = { line: at.line, byteOffset: at.byteOffset, code, severity: severityOf(code), message };
  if (entryId !== undefined) d.entryId = entryId;
  return d;
}

export function formatDiagnostic(file: string, d: Diagnostic): string {
  return `${file}:${d.line}: ${d.severity} ${d.code}: ${d.message}`;
}
