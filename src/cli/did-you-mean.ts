import { distance } from "fastest-levenshtein";

/** The closest known name to a mistyped one, when it is close enough to be what was meant. */
export function closest(given: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of known) {
    const d = name.startsWith(given) && given.length >= 2 ? 0.5 : distance(given, name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(given.length / 3)) ? best : null;
}

export function didYouMean(given: string, known: readonly string[]): string {
  const match = closest(given, known);
  return match ? ` (did you mean ${match}?)` : "";
}
