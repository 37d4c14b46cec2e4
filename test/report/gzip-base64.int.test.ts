import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { setSourceHooks } from "../../src/files/file-pool.js";
import { GzipToFile, writeText } from "../../src/report/gzip-base64.js";
import { buildPageModel, pageModelParts } from "../../src/report/page-model.js";
import { writeSessionPageFile } from "../../src/report/page-writer.js";
import { renderSessionPage } from "../../src/report/render-session-page.js";
import { loadSessionText } from "../../src/session.js";
import { Random } from "../synth/random.js";
import { randomSession } from "../synth/random-tree.js";

const scratch = mkdtempSync(join(tmpdir(), "ck-gzip-base64-"));
const HOOKS = new URL("../bench/ts-hooks.mjs", import.meta.url).href;
afterAll(() => {
  setSourceHooks(null);
  rmSync(scratch, { recursive: true, force: true });
});

/** The file's text (`before:` and the base64), the bytes gzip wrote, and whether it ran on a worker thread. */
async function gzipped(name: string, pieces: Uint8Array[], threaded: boolean, inFlightBytes?: number) {
  setSourceHooks(threaded ? HOOKS : null);
  const path = join(scratch, name);
  const fd = openSync(path, "w");
  try {
    const gzip = new GzipToFile(fd, inFlightBytes);
    // Written bytes are gzip's: a buffer of their own moves to the worker.
    for (const piece of pieces) await gzip.write(Buffer.from(piece));
    // What goes before the base64 is written once gzip has taken in everything: nothing of it is written before.
    writeText(fd, "before:");
    gzip.release();
    const bytes = await gzip.end();
    return { text: readFileSync(path, "latin1"), bytes, threaded: gzip.threaded };
  } finally {
    closeSync(fd);
  }
}

describe("gzip as base64, on a worker thread or not", () => {
  it("writes the same base64 after what the file holds, in whatever pieces the bytes come", async () => {
    const residues = new Set<number>();
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const rnd = new Random(seed);
      const pieces = Array.from({ length: 1 + rnd.int(300) }, () =>
        Buffer.from(Array.from({ length: rnd.int(5000) }, () => rnd.pick(["a", "é", "中", "{", "\n"])).join("")),
      );
      const whole = Buffer.concat(pieces);
      const worker = await gzipped("worker.txt", pieces, true);
      // Sending waits for gzip to take in what it was sent beyond a few kilobytes: the same text.
      const waiting = await gzipped("waiting.txt", pieces, true, 4096);
      const local = await gzipped("local.txt", [whole], false);
      expect(worker.threaded).toBe(true);
      expect(local.threaded).toBe(false);
      expect(worker.text).toBe(local.text);
      expect(waiting.text).toBe(local.text);
      expect(worker.text.startsWith("before:")).toBe(true);
      expect(worker.bytes).toBe(worker.text.length - "before:".length);
      const gzip = Buffer.from(worker.text.slice("before:".length), "base64");
      expect(gunzipSync(gzip).equals(whole)).toBe(true);
      residues.add(gzip.length % 3);
    }
    // Some of them end in a partial 3-byte group, which base64 writes last.
    expect(residues.size).toBeGreaterThan(1);
  });

  it("writes a gzipped page that is renderSessionPage's text", async () => {
    setSourceHooks(HOOKS);
    const session = loadSessionText("s", randomSession(4, 2000).toJsonl());
    const model = buildPageModel("s.jsonl", session);
    for (const compressAbove of [10, 5000]) {
      const expected = renderSessionPage(model, { compressAbove });
      for (const given of [model, pageModelParts("s.jsonl", session)]) {
        const page = join(scratch, "p.html");
        const bytes = await writeSessionPageFile(given, page, { compressAbove });
        expect(readFileSync(page, "utf8")).toBe(expected);
        expect(bytes).toBe(Buffer.byteLength(expected));
      }
    }
  });
});
