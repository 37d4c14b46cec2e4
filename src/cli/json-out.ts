/**
 * Characters gathered before one write: few system calls, never the whole document in memory, and each string small
 * enough for V8's young generation (a larger one is made in the large-object space, which only a full collection
 * frees: a 100k-message view made about 200 MB of such garbage in 1 MB pieces).
 */
const FLUSH_CHARS = 1 << 15;
/** Array items serialised together (a few kilobytes each for session messages). */
const BATCH = 8;
/** `{\n  "x": [\n` before the items and `\n  ]\n}` after them. */
const ITEMS_START = 11;
const ITEMS_END = 6;

/**
 * Writes `JSON.stringify(value, null, 2)` and a newline, byte for byte, in pieces: each member of a top-level array
 * (a view's messages, a folder's files) is serialised on its own, so no string of the whole document is built.
 * The items are printed in small batches inside a stand-in object of the same depth, so they are the same text as
 * inside the whole.
 */
export function writeJson(value: unknown, write: (chunk: string) => void): void {
  let pending = "";
  const put = (text: string) => {
    pending += text;
    if (pending.length >= FLUSH_CHARS) {
      write(pending);
      pending = "";
    }
  };
  if (!isPlainRecord(value)) {
    put(`${JSON.stringify(value, null, 2)}\n`);
  } else {
    let first = true;
    put("{");
    for (const key of Object.keys(value)) {
      const member = value[key];
      const whole = Array.isArray(member) && member.length > 0 ? null : JSON.stringify(member, null, 2);
      if (whole === undefined) continue;
      put(`${first ? "" : ","}\n  ${JSON.stringify(key)}: `);
      first = false;
      if (whole !== null) {
        put(indented(whole, 2));
        continue;
      }
      const items = member as unknown[];
      put("[\n");
      for (let i = 0; i < items.length; i += BATCH) {
        // Inside `{"x": [...]}` the items come out indented as they are in the whole document.
        const text = JSON.stringify({ x: items.slice(i, i + BATCH) }, null, 2);
        put(`${i === 0 ? "" : ",\n"}${text.slice(ITEMS_START, -ITEMS_END)}`);
      }
      put("\n  ]");
    }
    put(first ? "}\n" : "\n}\n");
  }
  if (pending) write(pending);
}

function indented(text: string, depth: number): string {
  return text.includes("\n") ? text.replaceAll("\n", `\n${" ".repeat(depth)}`) : text;
}

/** An object JSON.stringify prints member by member (no toJSON of its own). */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    typeof (value as { toJSON?: unknown }).toJSON !== "function"
  );
}
