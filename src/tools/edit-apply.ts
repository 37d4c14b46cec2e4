export interface TextEdit {
  oldText: string;
  newText: string;
}

export type EditFailure =
  | { reason: "EDIT_EMPTY"; index?: number }
  | { reason: "EDIT_NOT_FOUND"; index: number }
  | { reason: "EDIT_NOT_UNIQUE"; index: number; occurrences: number }
  | { reason: "EDIT_OVERLAP"; index: number; other: number }
  | { reason: "EDIT_NO_CHANGE" };

export type EditOutcome = { ok: true; content: string } | ({ ok: false } & EditFailure);

/** Occurrences of `needle`, overlapping ones included, counting up to `stop`. */
function occurrences(haystack: string, needle: string, stop: number): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at >= 0 && found.length < stop; at = haystack.indexOf(needle, at + 1)) {
    found.push(at);
  }
  return found;
}

/**
 * Applies every edit to the original text at once: each `oldText` must occur exactly once, no two matched regions
 * may overlap, and the result must differ. Any failure leaves nothing applied.
 */
export function applyEdits(content: string, edits: readonly TextEdit[]): EditOutcome {
  if (edits.length === 0) return { ok: false, reason: "EDIT_EMPTY" };
  const spans: { index: number; start: number; end: number; newText: string }[] = [];
  for (const [index, edit] of edits.entries()) {
    if (edit.oldText.length === 0) return { ok: false, reason: "EDIT_EMPTY", index };
    const at = occurrences(content, edit.oldText, 3);
    if (at.length === 0) return { ok: false, reason: "EDIT_NOT_FOUND", index };
    if (at.length > 1)
      return {
        ok: false,
        reason: "EDIT_NOT_UNIQUE",
        index,
        occurrences: occurrences(content, edit.oldText, 1e6).length,
      };
    const start = at[0] ?? 0;
    spans.push({ index, start, end: start + edit.oldText.length, newText: edit.newText });
  }
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++) {
    const previous = spans[i - 1];
    const current = spans[i];
    if (previous && current && current.start < previous.end) {
      return { ok: false, reason: "EDIT_OVERLAP", index: current.index, other: previous.index };
    }
  }
  let result = "";
  let cursor = 0;
  for (const span of spans) {
    result += content.slice(cursor, span.start) + span.newText;
    cursor = span.end;
  }
  result += content.slice(cursor);
  return result === content ? { ok: false, reason: "EDIT_NO_CHANGE" } : { ok: true, content: result };
}

export function detectLineEnding(text: string): "\r\n" | "\n" {
  const crlf = text.indexOf("\r\n");
  const lf = text.indexOf("\n");
  return crlf >= 0 && crlf < lf ? "\r\n" : "\n";
}

export function toLF(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
}

export function fromLF(text: string, ending: "\r\n" | "\n"): string {
  return ending === "\r\n" ? text.replace(/\n/g, "\r\n") : text;
}
