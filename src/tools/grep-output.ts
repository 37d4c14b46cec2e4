const MAX_LINE_CHARS = 500;

function clip(line: string): { text: string; cut: boolean } {
  return line.length > MAX_LINE_CHARS
    ? { text: `${line.slice(0, MAX_LINE_CHARS)}... [truncated]`, cut: true }
    : { text: line, cut: false };
}

/** A file's text as grep numbers its lines (any line ending; no empty last line after a final newline). */
export function grepLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  return lines;
}

/** grep's output lines in the host's format, counting matches up to the limit. */
export class GrepOutput {
  readonly lines: string[] = [];
  matches = 0;
  linesCut = false;

  constructor(
    readonly limit: number,
    readonly context: number,
  ) {}

  get full(): boolean {
    return this.matches >= this.limit;
  }

  /** One match at 0-based index `i` of `lines`, with its context lines. */
  block(label: string, lines: readonly string[], i: number): void {
    this.matches++;
    const from = Math.max(0, i - this.context);
    const to = Math.min(lines.length - 1, i + this.context);
    for (let j = from; j <= to; j++) this.push(label, j + 1, lines[j] ?? "", j === i);
  }

  /** One matching line without context. */
  line(label: string, lineNumber: number, text: string): void {
    this.matches++;
    this.push(label, lineNumber, text, true);
  }

  /** Every matching line of a file until the limit; false once the limit is reached. */
  searchText(label: string, text: string, regex: RegExp): boolean {
    const lines = grepLines(text);
    for (let i = 0; i < lines.length && !this.full; i++) {
      if (regex.test(lines[i] ?? "")) this.block(label, lines, i);
    }
    return !this.full;
  }

  private push(label: string, lineNumber: number, text: string, isMatch: boolean): void {
    const { text: shown, cut } = clip(text);
    this.linesCut ||= cut;
    this.lines.push(isMatch ? `${label}:${lineNumber}: ${shown}` : `${label}-${lineNumber}- ${shown}`);
  }
}

export { MAX_LINE_CHARS };
