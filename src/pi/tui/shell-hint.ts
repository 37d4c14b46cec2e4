/**
 * The host's startup header offers `!` to run bash, which the kit refuses. The kit's header is the host's own, drawn
 * by the host, with those hints taken out: the compact line's "· ! bash" and the full help's two "! … to run bash"
 * lines. Colours are kept: only visible characters are removed, every escape sequence stays.
 */

/** What the host's TUI draws: lines for a width. */
interface Drawn {
  render(width: number): string[];
  invalidate?(): void;
  setExpanded?(expanded: boolean): void;
  children?: Drawn[];
}

const ESCAPE = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/y;
const COMPACT_HINT = " · ! bash";
const FULL_HINT = /^\s*!!?\s+to run bash\b/;

/** One drawn line without the shell hints, or null when the whole line is one. */
export function withoutShellHint(line: string): string | null {
  const tokens: { text: string; visible: boolean }[] = [];
  for (let i = 0; i < line.length; ) {
    ESCAPE.lastIndex = i;
    const sequence = ESCAPE.exec(line);
    if (sequence) {
      tokens.push({ text: sequence[0], visible: false });
      i += sequence[0].length;
    } else {
      const ch = String.fromCodePoint(line.codePointAt(i) as number);
      tokens.push({ text: ch, visible: true });
      i += ch.length;
    }
  }
  const visible = tokens.filter((t) => t.visible).map((t) => t.text);
  const shown = visible.join("");
  if (FULL_HINT.test(shown)) return null;
  const at = shown.indexOf(COMPACT_HINT);
  if (at < 0) return line;
  // Drop the hint's visible characters (by index among the visible ones), keep every escape sequence.
  let index = 0;
  const from = [...shown.slice(0, at)].length;
  const to = from + [...COMPACT_HINT].length;
  return tokens
    .filter((t) => {
      if (!t.visible) return true;
      const keep = index < from || index >= to;
      index++;
      return keep;
    })
    .map((t) => t.text)
    .join("");
}

/** The first expandable component in drawing order (depth first, a few levels down): the host's startup header. */
function firstExpandable(node: Drawn, depth = 0): Drawn | null {
  for (const child of node.children ?? []) {
    if (typeof child.setExpanded === "function") return child;
    const found = depth < 3 ? firstExpandable(child, depth + 1) : null;
    if (found) return found;
  }
  return null;
}

/**
 * A header factory for `ctx.ui.setHeader`: it finds the host's built-in header (the first expandable component the
 * TUI draws: 0.73 keeps it in the TUI's first container, 1.x one level further down) and draws it without the shell
 * hints; null when there is none, for the caller to keep the host's header.
 */
export function headerWithoutShell(tui: Drawn): Drawn | null {
  const builtIn = firstExpandable(tui);
  if (!builtIn) return null;
  return {
    render: (width) => builtIn.render(width).flatMap((line) => withoutShellHint(line) ?? []),
    invalidate: () => builtIn.invalidate?.(),
    setExpanded: (expanded) => builtIn.setExpanded?.(expanded),
  };
}
