/** Array items serialised together: small pieces, which die young instead of in the large-object space. */
const BATCH = 256;

/**
 * `JSON.stringify(value)` in pieces whose concatenation is exactly that text: objects down to `depth` levels are
 * written member by member and long arrays in batches, so no string of the whole document is built. Anything with a
 * `toJSON` (or inside such a value) is serialised whole, as `JSON.stringify` would.
 */
export function* jsonPieces(value: unknown, depth: number): Generator<string> {
  if (depth > 0 && Array.isArray(value) && value.length > BATCH && !value.some(hasOwnToJson)) {
    yield "[";
    for (let i = 0; i < value.length; i += BATCH) {
      const text = JSON.stringify(value.slice(i, i + BATCH));
      yield `${i === 0 ? "" : ","}${text.slice(1, -1)}`;
    }
    yield "]";
    return;
  }
  if (depth > 0 && isPlainRecord(value) && !hasToJson(value)) {
    yield "{";
    yield* memberPieces(value, depth, true);
    yield "}";
    return;
  }
  const text = JSON.stringify(value);
  if (text !== undefined) yield text;
}

/**
 * The members of an object as `jsonPieces(object, depth)` writes them between its braces; `first`: whether they
 * begin the object (no comma before the first). Returns whether the object still has no member written.
 */
export function* memberPieces(
  value: Record<string, unknown>,
  depth: number,
  first: boolean,
): Generator<string, boolean> {
  for (const key of Object.keys(value)) {
    const member = value[key];
    // The members JSON.stringify leaves out of an object.
    if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
    yield `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    yield* jsonPieces(member, depth - 1);
  }
  return first;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The object or one of its members is serialised through `toJSON`, which takes the member's key. */
function hasToJson(value: Record<string, unknown>): boolean {
  if (typeof value.toJSON === "function") return true;
  for (const key of Object.keys(value)) if (hasOwnToJson(value[key])) return true;
  return false;
}

/** An item whose `toJSON` would be called with its key or index, which a batch would change. */
function hasOwnToJson(item: unknown): boolean {
  return item !== null && typeof item === "object" && typeof (item as { toJSON?: unknown }).toJSON === "function";
}
