/** `1 entry`, `2 entries`: a count with its noun in the right number. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** At most `max` lines, then one line saying how many more there are and where to see them. */
export function capped(lines: readonly string[], max: number, rest: (more: number) => string): string[] {
  if (lines.length <= max) return [...lines];
  return [...lines.slice(0, max), rest(lines.length - max)];
}
