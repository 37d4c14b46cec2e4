import { closeSync, openSync } from "node:fs";
import { GzipToFile, writeText } from "./gzip-base64.js";
import { jsonPieces } from "./json-pieces.js";
import type { SessionPageModel } from "./page-model.js";
import { embeddedJson, pageAfterData, pageBeforeData, type SessionPageOptions } from "./render-session-page.js";

/** Characters of model JSON handed to gzip at a time (small enough for V8's young generation). */
const FEED_CHARS = 1 << 16;

/**
 * Writes `renderSessionPage(model, options)` to `path`, byte for byte, and returns its length in bytes. A large
 * model is never one string: its JSON is made in pieces and fed to gzip as it is made (gzip runs on a worker thread
 * meanwhile, which writes the base64 of what it gives to the file as it comes).
 */
export async function writeSessionPageFile(
  model: SessionPageModel,
  path: string,
  options: SessionPageOptions = {},
): Promise<number> {
  const limit = options.compressAbove ?? 2_000_000;
  const pieces = jsonPieces(model, 3);
  // Up to the limit the model may still go in as JSON: hold it until that is decided.
  const held: string[] = [];
  let length = 0;
  // Not `for … of` with a break, which would close the generator.
  for (let next = pieces.next(); !next.done; next = pieces.next()) {
    held.push(next.value);
    length += next.value.length;
    if (length > limit) break;
  }
  const fd = openSync(path, "w");
  try {
    if (length <= limit) {
      const data = embeddedJson(held.join(""), limit);
      return writeText(fd, `${pageBeforeData(model, options, data.encoding)}${data.text}${pageAfterData()}`);
    }
    let bytes = writeText(fd, pageBeforeData(model, options, "gzip+base64"));
    bytes += await gzipInto(fd, [held, pieces]);
    return bytes + writeText(fd, pageAfterData());
  } finally {
    closeSync(fd);
  }
}

/** The concatenated texts gzipped, their base64 written to `fd`; the bytes written. */
async function gzipInto(fd: number, sources: Iterable<string>[]): Promise<number> {
  const gzip = new GzipToFile(fd);
  try {
    let text = "";
    for (const source of sources) {
      for (const piece of source) {
        text += piece;
        if (text.length < FEED_CHARS) continue;
        await gzip.write(Buffer.from(text, "utf8"));
        text = "";
      }
    }
    if (text !== "") await gzip.write(Buffer.from(text, "utf8"));
    return await gzip.end();
  } catch (error) {
    await gzip.abandon();
    throw error;
  }
}
