import { closeSync, openSync, writeSync } from "node:fs";
import { createGzip } from "node:zlib";
import { jsonPieces } from "./json-pieces.js";
import type { SessionPageModel } from "./page-model.js";
import { embeddedJson, pageAfterData, pageBeforeData, type SessionPageOptions } from "./render-session-page.js";

/** Characters of model JSON handed to gzip at a time (small enough for V8's young generation). */
const FEED_CHARS = 1 << 16;

/**
 * Writes `renderSessionPage(model, options)` to `path`, byte for byte, and returns its length in bytes. A large
 * model is never one string: its JSON is made in pieces and fed to gzip as it is made (gzip runs on the thread pool
 * meanwhile), and the base64 of what gzip gives is written as it comes. The same bytes, since deflate without a
 * flush compresses a stream the same however it is cut, and base64 of whole 3-byte groups concatenates.
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
    let bytes = 0;
    const put = (text: string) => {
      const buffer = Buffer.from(text, "utf8");
      let done = 0;
      while (done < buffer.length) done += writeSync(fd, buffer, done);
      bytes += buffer.length;
    };
    if (length <= limit) {
      const data = embeddedJson(held.join(""), limit);
      put(`${pageBeforeData(model, options, data.encoding)}${data.text}${pageAfterData()}`);
      return bytes;
    }
    put(pageBeforeData(model, options, "gzip+base64"));
    await gzipBase64([held, pieces], put);
    put(pageAfterData());
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** Gzip (level 1) of the concatenated texts, written as base64 through `put` as it is made. */
async function gzipBase64(sources: Iterable<string>[], put: (text: string) => void): Promise<void> {
  const gzip = createGzip({ level: 1 });
  let carry: Buffer | null = null;
  gzip.on("data", (chunk: Buffer) => {
    const all: Buffer = carry === null ? chunk : Buffer.concat([carry, chunk]);
    const whole = all.length - (all.length % 3);
    if (whole > 0) put(all.subarray(0, whole).toString("base64"));
    carry = whole < all.length ? Buffer.from(all.subarray(whole)) : null;
  });
  const finished = new Promise<void>((resolve, reject) => {
    gzip.once("end", resolve);
    gzip.once("error", reject);
  });
  const drained = () => new Promise<void>((resolve) => gzip.once("drain", resolve));
  let text = "";
  for (const source of sources) {
    for (const piece of source) {
      text += piece;
      if (text.length < FEED_CHARS) continue;
      if (!gzip.write(Buffer.from(text, "utf8"))) await drained();
      text = "";
    }
  }
  if (text !== "") gzip.write(Buffer.from(text, "utf8"));
  gzip.end();
  await finished;
  if (carry !== null) put((carry as Buffer).toString("base64"));
}
