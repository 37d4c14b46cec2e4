/** `depthIn` remembers one entry in this many on the paths it climbs. */
const DEPTH_EVERY = 64;

/**
 * The depth of `id` (a root is 0): climbs parent links to the nearest remembered depth, then remembers the entry
 * asked for, one entry in 64 and those `keep` names on the way, so a later climb stops soon without a map of every
 * entry.
 */
export function depthIn(
  id: string,
  parentOf: (id: string) => string | null,
  depths: Map<string, number>,
  keep: (id: string) => boolean = () => false,
): number {
  const climbed: string[] = [];
  let base = -1;
  for (let cursor: string | null = id; cursor !== null; cursor = parentOf(cursor)) {
    const known = depths.get(cursor);
    if (known !== undefined) {
      base = known;
      break;
    }
    climbed.push(cursor);
  }
  for (let i = climbed.length - 1; i >= 0; i--) {
    const at = climbed[i] as string;
    ++base;
    if (i === 0 || base % DEPTH_EVERY === 0 || keep(at)) depths.set(at, base);
  }
  return base;
}
