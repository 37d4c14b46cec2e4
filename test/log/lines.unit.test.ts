import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { linesOfBuffer, linesOfFile, type RawLine } from "../../src/log/lines.js";

const scratch = mkdtempSync(join(tmpdir(), "ck-lines-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The file reader's chunk size (src/log/lines.ts). */
const CHUNK = 4 * 1024 * 1024;

const summary = (lines: Iterable<RawLine>) =>
  [...lines].map((l) => ({
    line: l.line,
    byteOffset: l.byteOffset,
    terminated: l.terminated,
    length: l.bytes.length,
    sha: createHash("sha1").update(l.bytes).digest("hex"),
  }));

/** A buffer with `\n` at the given offsets and `x` elsewhere. */
function withNewlinesAt(size: number, offsets: number[]): Buffer {
  const buffer = Buffer.alloc(size, 0x78);
  for (const at of offsets) buffer[at] = 0x0a;
  return buffer;
}

/** Varied bytes (so a line overwritten by a later chunk shows) with a newline every 1 to 200,000 bytes. */
function variedLines(size: number): Buffer {
  const buffer = Buffer.alloc(size);
  let seed = 7;
  let next = 0;
  for (let i = 0; i < size; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    if (i === next) {
      buffer[i] = 0x0a;
      next = i + 1 + (seed % 200_000);
    } else buffer[i] = 0x20 + (seed % 90);
  }
  return buffer;
}

const cases: [string, Buffer][] = [
  ["empty", Buffer.alloc(0)],
  ["a single newline", Buffer.from("\n")],
  ["no newline at all", Buffer.from("abc")],
  ["CR LF and U+2028", Buffer.from('{"a":"x\u2028y"}\r\n{"b":1}\r\n\r\n')],
  ["newline as the last byte of a chunk", withNewlinesAt(CHUNK + 10, [5, CHUNK - 1])],
  ["newline as the first byte of a chunk", withNewlinesAt(CHUNK + 10, [CHUNK, CHUNK + 9])],
  ["file ends exactly at a chunk", withNewlinesAt(CHUNK, [100, CHUNK - 1])],
  ["file ends one past a chunk, unterminated", withNewlinesAt(CHUNK + 1, [CHUNK - 1])],
  ["a line longer than two chunks", withNewlinesAt(2 * CHUNK + 7, [3, 2 * CHUNK + 2])],
  ["CR at a chunk end, LF at the next start", withNewlinesAt(CHUNK + 4, [CHUNK]).fill(0x0d, CHUNK - 1, CHUNK)],
  ["varied lines over three chunks", variedLines(3 * CHUNK + 12_345)],
  [
    "lines across three chunks",
    withNewlinesAt(3 * CHUNK + 100, [7, CHUNK - 3, CHUNK + 2, 2 * CHUNK - 1, 2 * CHUNK + 50]),
  ],
];

describe("line splitting: the streaming file reader equals the in-memory splitter", () => {
  it.each(cases)("%s", (name, buffer) => {
    const file = join(scratch, `${name.replace(/\W+/g, "-")}.jsonl`);
    writeFileSync(file, buffer);
    const fromFile = summary(linesOfFile(file));
    expect(fromFile).toEqual(summary(linesOfBuffer(buffer)));
    // Reusing one buffer: each line read before the next is taken.
    const reused = Array.from(linesOfFile(file, { reuse: true }), (l) => summary([l])[0]);
    expect(reused).toEqual(fromFile);
    // The lines and their newlines put back together are the file.
    const rebuilt = Buffer.concat(
      [...linesOfBuffer(buffer)].flatMap((l) => (l.terminated ? [l.bytes, Buffer.from("\n")] : [l.bytes])),
    );
    expect(rebuilt.equals(buffer)).toBe(true);
    expect(fromFile.filter((l) => !l.terminated).length).toBe(buffer.length > 0 && buffer.at(-1) !== 0x0a ? 1 : 0);
  });

  it("splits on \\n only: CR, U+2028, U+2029 and U+0085 stay inside the line", () => {
    const lines = [...linesOfBuffer(Buffer.from("a\rb\u2028c\u2029d\u0085e\nf"))];
    expect(lines.map((l) => l.bytes.toString("utf8"))).toEqual(["a\rb\u2028c\u2029d\u0085e", "f"]);
    expect(lines.map((l) => l.byteOffset)).toEqual([0, Buffer.byteLength("a\rb\u2028c\u2029d\u0085e\n")]);
  });
});
