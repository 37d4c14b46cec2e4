import { wholeCharacters } from "../policy/utf8.js";

export const MAX_LINES = 2000;
export const MAX_BYTES = 50 * 1024;

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

function cutBytes(text: string, maxBytes: number): string {
  return wholeCharacters(Buffer.from(text, "utf8").subarray(0, maxBytes)).toString("utf8");
}

/** The first lines of `lines` that fit both limits; a first line alone over the byte limit is cut. */
function headLines(lines: readonly string[], maxLines = MAX_LINES, maxBytes = MAX_BYTES) {
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    if (kept.length >= maxLines) break;
    const size = Buffer.byteLength(line, "utf8") + (kept.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) {
      if (kept.length === 0) return { kept: [cutBytes(line, maxBytes)], truncatedBy: "bytes" as const, cutLine: true };
      return { kept, truncatedBy: "bytes" as const, cutLine: false };
    }
    kept.push(line);
    bytes += size;
  }
  const truncatedBy = kept.length < lines.length ? ("lines" as const) : undefined;
  return { kept, truncatedBy, cutLine: false };
}

export type TextWindow = { ok: true; text: string } | { ok: false; totalLines: number };

/** The host's read window: 1-based `offset`, optional `limit`, 2000 lines / 50KB, with continuation notices. */
export function windowText(text: string, offset?: number, limit?: number): TextWindow {
  const all = text.split("\n");
  const start = offset !== undefined && offset > 0 ? Math.floor(offset) - 1 : 0;
  if (start >= all.length) return { ok: false, totalLines: all.length };
  const end = limit !== undefined ? Math.min(start + Math.max(0, Math.floor(limit)), all.length) : all.length;
  const selected = all.slice(start, end);
  const { kept, truncatedBy, cutLine } = headLines(selected);
  const first = start + 1;
  const last = start + kept.length;
  let out = kept.join("\n");
  if (cutLine) {
    out += `\n\n[Line ${first} is longer than ${formatSize(MAX_BYTES)} and was cut. Use offset=${first + 1} to continue.]`;
  } else if (truncatedBy === "lines") {
    out += `\n\n[Showing lines ${first}-${last} of ${all.length}. Use offset=${last + 1} to continue.]`;
  } else if (truncatedBy === "bytes") {
    out += `\n\n[Showing lines ${first}-${last} of ${all.length} (${formatSize(MAX_BYTES)} limit). Use offset=${last + 1} to continue.]`;
  } else if (end < all.length) {
    out += `\n\n[${all.length - end} more lines in file. Use offset=${end + 1} to continue.]`;
  }
  return { ok: true, text: out };
}

/** Joins output lines and cuts at a line boundary so the text stays within the byte limit. */
export function capOutput(lines: readonly string[], maxBytes = MAX_BYTES): { text: string; truncated: boolean } {
  const { kept, truncatedBy } = headLines(lines, Number.MAX_SAFE_INTEGER, maxBytes);
  return { text: kept.join("\n"), truncated: truncatedBy !== undefined };
}
