import { closeSync, openSync } from "node:fs";
import { GzipToFile, writeText } from "./gzip-base64.js";
import { memberPieces } from "./json-pieces.js";
import type { PageModelParts, SessionPageModel } from "./page-model.js";
import { embeddedJson, pageAfterData, pageBeforeData, type SessionPageOptions } from "./render-session-page.js";

/** Characters of model JSON handed to gzip at a time (small enough for V8's young generation). */
const FEED_CHARS = 1 << 16;
/** Levels of the model written member by member (`jsonPieces`): its members, theirs, and long arrays in them. */
const MODEL_DEPTH = 3;

/**
 * Writes `renderSessionPage(model, options)` to `path`, byte for byte, and returns its length in bytes. A large
 * model is never one string: its JSON is made in pieces and fed to gzip as it is made, gzip runs on a worker thread
 * meanwhile, and the base64 of what it gives is written once the page before it is. Given in parts, the model's
 * later members are made while gzip takes in the first ones.
 */
export async function writeSessionPageFile(
  model: SessionPageModel | PageModelParts,
  path: string,
  options: SessionPageOptions = {},
): Promise<number> {
  const parts = "first" in model ? model : { first: model, rest: () => ({}) };
  const whole = () => ({ ...parts.first, ...parts.rest() }) as SessionPageModel;
  const limit = options.compressAbove ?? 2_000_000;
  const pieces = modelPieces(parts);
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
      return writeText(fd, `${pageBeforeData(whole(), options, data.encoding)}${data.text}${pageAfterData()}`);
    }
    const gzip = new GzipToFile(fd);
    try {
      await feed(gzip, [held, pieces]);
      const before = writeText(fd, pageBeforeData(whole(), options, "gzip+base64"));
      gzip.release();
      const data = await gzip.end();
      return before + data + writeText(fd, pageAfterData());
    } catch (error) {
      await gzip.abandon();
      throw error;
    }
  } finally {
    closeSync(fd);
  }
}

/** `JSON.stringify` of the whole model, in pieces: its later members are made once the first ones are taken. */
function* modelPieces(parts: { first: object; rest(): object }): Generator<string> {
  yield "{";
  const none = yield* memberPieces(parts.first as Record<string, unknown>, MODEL_DEPTH, true);
  yield* memberPieces(parts.rest() as Record<string, unknown>, MODEL_DEPTH, none);
  yield "}";
}

/** The concatenated texts as UTF-8, to gzip in pieces of about `FEED_CHARS`. */
async function feed(gzip: GzipToFile, sources: Iterable<string>[]): Promise<void> {
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
}
