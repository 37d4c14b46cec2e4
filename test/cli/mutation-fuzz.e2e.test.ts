/**
 * Seeded mutation fuzzing of every offline command on real and sample sessions: truncation, flipped bytes, garbage,
 * duplicated and swapped lines, broken parents, retyped records and fields, deep nesting, huge strings, bad UTF-8,
 * CRLF with a BOM, NUL bytes. Every run must end with exit 0, 1 or 2, one JSON document with --json, no stack trace,
 * and the input file unchanged. Most runs call the command functions; a sample of them runs the built binary.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { realSessionsPresent, SHARED_SESSIONS } from "../helpers/shared-sessions.js";

const SAMPLES = join(import.meta.dirname, "../../evidence-samples");
const SHARED = SHARED_SESSIONS;
const BIN = join(import.meta.dirname, "../../dist/src/cli/main.js");
const SEED = 18_0701;
const scratch = mkdtempSync(join(tmpdir(), "ck-fuzz-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function sources(): { name: string; bytes: Buffer }[] {
  const out = readdirSync(SAMPLES)
    .filter((n) => n.endsWith(".jsonl"))
    .map((name) => ({ name, bytes: readFileSync(join(SAMPLES, name)) }));
  if (realSessionsPresent(SHARED, "mutation fuzz on real sessions")) {
    for (const name of readdirSync(SHARED).sort()) {
      const path = join(SHARED, name);
      if (name.endsWith(".jsonl") && statSync(path).size < 400_000) out.push({ name, bytes: readFileSync(path) });
    }
  }
  return out;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One mutation, described by plain data so fast-check can generate and shrink it. */
type Mutation =
  | { kind: "truncate"; at: number }
  | { kind: "flip"; positions: number[] }
  | { kind: "garbage"; line: number; bytes: Uint8Array }
  | { kind: "duplicate"; from: number; to: number }
  | { kind: "swap"; a: number; b: number }
  | { kind: "parent"; line: number; value: Json }
  | { kind: "field"; line: number; path: number[]; value: Json }
  | { kind: "nest"; line: number; path: number[]; depth: number }
  | { kind: "huge"; line: number; path: number[]; length: number }
  | { kind: "utf8"; line: number; at: number }
  | { kind: "crlfBom" }
  | { kind: "nul"; positions: number[] };

const junk: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, 0, -1, 1e308, "", "x", true, [], {}, [null, 5, "x"], { type: "text" }),
  fc.constantFrom<Json>("message", "custom", "custom_message", "compaction", "branch_summary", "label", "session"),
  fc.constantFrom<Json>("user", "assistant", "toolResult", "custom", "bashExecution", "toolCall", "text"),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
);
const index = fc.nat({ max: 10_000 });
const path = fc.array(fc.nat({ max: 12 }), { minLength: 0, maxLength: 4 });

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("flip" as const), positions: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant("garbage" as const), line: index, bytes: fc.uint8Array({ maxLength: 200 }) }),
  fc.record({ kind: fc.constant("duplicate" as const), from: index, to: index }),
  fc.record({ kind: fc.constant("swap" as const), a: index, b: index }),
  fc.record({ kind: fc.constant("parent" as const), line: index, value: junk }),
  fc.record({ kind: fc.constant("field" as const), line: index, path, value: junk }),
  fc.record({ kind: fc.constant("nest" as const), line: index, path, depth: fc.integer({ min: 50, max: 20_000 }) }),
  fc.record({ kind: fc.constant("huge" as const), line: index, path, length: fc.integer({ min: 1, max: 1_000_000 }) }),
  fc.record({ kind: fc.constant("utf8" as const), line: index, at: fc.nat() }),
  fc.constant({ kind: "crlfBom" as const }),
  fc.record({ kind: fc.constant("nul" as const), positions: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }) }),
);

function splitLines(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, start)) {
    out.push(bytes.subarray(start, i));
    start = i + 1;
  }
  if (start < bytes.length) out.push(bytes.subarray(start));
  return out;
}

/** Replaces the value at `path` (indices into keys/elements, wrapping) inside a parsed record. */
function replaceAt(record: Json, steps: number[], make: () => Json): Json {
  if (steps.length === 0 || record === null || typeof record !== "object") return make();
  const [step, ...rest] = steps as [number, ...number[]];
  if (Array.isArray(record)) {
    if (record.length === 0) return make();
    const i = step % record.length;
    record[i] = replaceAt(record[i] as Json, rest, make);
    return record;
  }
  const keys = Object.keys(record);
  if (keys.length === 0) return make();
  const key = keys[step % keys.length] as string;
  record[key] = replaceAt(record[key] as Json, rest, make);
  return record;
}

function editRecord(
  lines: Buffer[],
  line: number,
  edit: (record: Json) => Json,
  finish = (text: string) => text,
): Buffer[] {
  if (lines.length === 0) return lines;
  const i = line % lines.length;
  const copy = [...lines];
  try {
    const record = JSON.parse((lines[i] as Buffer).toString("utf8")) as Json;
    copy[i] = Buffer.from(finish(JSON.stringify(edit(record))));
  } catch {
    return lines; // a line an earlier mutation already broke (or nested too deep to parse here): left as it is
  }
  return copy;
}

const NEST = "__fuzz_nest__";
/** Arrays and an object nested `2 × depth` deep, written as text (parsing it here could exhaust the stack). */
const nestedText = (depth: number) =>
  `${"[".repeat(depth)}{"a":${"[".repeat(depth)}${"]".repeat(depth)}}${"]".repeat(depth)}`;

function apply(bytes: Buffer, m: Mutation): Buffer {
  const lines = splitLines(bytes);
  const join = (ls: Buffer[]) => Buffer.concat(ls.flatMap((l) => [l, Buffer.from("\n")]));
  const at = (n: number, len: number) => (len === 0 ? 0 : n % len);
  switch (m.kind) {
    case "truncate":
      return bytes.subarray(0, at(m.at, bytes.length));
    case "flip": {
      const copy = Buffer.from(bytes);
      for (const p of m.positions) {
        const i = at(p, copy.length);
        if (copy.length > 0) copy[i] = (copy[i] as number) ^ 0xff;
      }
      return copy;
    }
    case "garbage": {
      const copy = [...lines];
      copy.splice(at(m.line, lines.length + 1), 0, Buffer.from(m.bytes.filter((b) => b !== 10)));
      return join(copy);
    }
    case "duplicate": {
      if (lines.length === 0) return bytes;
      const copy = [...lines];
      copy.splice(at(m.to, lines.length + 1), 0, lines[at(m.from, lines.length)] as Buffer);
      return join(copy);
    }
    case "swap": {
      if (lines.length === 0) return bytes;
      const copy = [...lines];
      const a = at(m.a, lines.length);
      const b = at(m.b, lines.length);
      [copy[a], copy[b]] = [copy[b] as Buffer, copy[a] as Buffer];
      return join(copy);
    }
    case "parent":
      return join(
        editRecord(lines, m.line, (r) =>
          r && typeof r === "object" && !Array.isArray(r) ? { ...r, parentId: m.value } : r,
        ),
      );
    case "field":
      return join(editRecord(lines, m.line, (r) => replaceAt(r, m.path, () => m.value)));
    case "nest":
      return join(
        editRecord(
          lines,
          m.line,
          (r) => replaceAt(r, m.path, () => NEST),
          (text) => text.replace(`"${NEST}"`, nestedText(m.depth)),
        ),
      );
    case "huge":
      return join(editRecord(lines, m.line, (r) => replaceAt(r, m.path, () => "é".repeat(m.length))));
    case "utf8": {
      if (lines.length === 0) return bytes;
      const copy = [...lines];
      const i = at(m.line, lines.length);
      const l = copy[i] as Buffer;
      const p = at(m.at, l.length + 1);
      copy[i] = Buffer.concat([l.subarray(0, p), Buffer.from([0xc3, 0x28, 0xff, 0xe2, 0x82]), l.subarray(p)]);
      return join(copy);
    }
    case "crlfBom":
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), ...lines.flatMap((l) => [l, Buffer.from("\r\n")])]);
    case "nul": {
      const copy = Buffer.from(bytes);
      for (const p of m.positions) if (copy.length > 0) copy[at(p, copy.length)] = 0;
      return copy;
    }
  }
}

const COMMANDS: ((file: string) => string[])[] = [
  (f) => ["inspect", f],
  (f) => ["inspect", f, "--strict"],
  (f) => ["replay", f],
  (f) => ["view", f],
  (f) => ["view", f, "--no-recovery"],
  (f) => ["check", f],
  (f) => ["detect", f, "--fail-on-stall"],
  (f) => ["recover", f, "--dry-run"],
  (f) => ["report", f, "--out", join(scratch, "report.html")],
];

const STACK = /^\s+at .+(:\d+:\d+\)?|\(native\))$|TypeError|RangeError|ReferenceError|SyntaxError: /m;
const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

interface Outcome {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

function expectClean(out: Outcome, argv: string[], json: boolean): void {
  const what = argv.join(" ");
  expect([0, 1, 2], `${what}: exit ${out.exitCode}\n${out.stderr}`).toContain(out.exitCode);
  expect(out.stderr, what).not.toMatch(STACK);
  if (json) expect(() => JSON.parse(out.stdout), `${what}: stdout is not one JSON document`).not.toThrow();
}

const pool = sources();
const corpus = fc.record({
  source: fc.nat({ max: pool.length - 1 }),
  mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
});

function materialise(c: { source: number; mutations: Mutation[] }, n: number): string {
  const source = pool[c.source] as { name: string; bytes: Buffer };
  const bytes = c.mutations.reduce(apply, source.bytes);
  const file = join(scratch, `m${n}-${source.name}`);
  writeFileSync(file, bytes);
  return file;
}

describe("mutation fuzzing of the offline commands", () => {
  it("given 120 mutated sessions, every command through its function exits 0/1/2 with one JSON document and leaves the input unchanged", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(corpus, async (c) => {
        const file = materialise(c, n++);
        const before = sha(file);
        for (const [i, command] of COMMANDS.entries()) {
          const json = (i + n) % 2 === 0;
          const argv = [...command(file), ...(json ? ["--json"] : [])];
          let out: Outcome;
          try {
            out = await runCli(argv, { cwd: scratch });
          } catch (error) {
            throw new Error(`${argv.join(" ")} threw: ${(error as Error).stack}`);
          }
          expectClean(out, argv, json);
        }
        expect(sha(file)).toBe(before);
        rmSync(file);
      }),
      { seed: SEED, numRuns: 120, endOnFailure: true },
    );
  }, 240_000);

  it.skipIf(!existsSync(BIN))(
    "given mutated sessions, the built binary exits 0/1/2 with one JSON document, no stack trace, input unchanged",
    () => {
      const samples = fc.sample(corpus, { seed: SEED + 1, numRuns: 2 });
      samples.forEach((c, i) => {
        const file = materialise(c, 10_000 + i);
        const before = sha(file);
        // Startup dominates a subprocess: the binary runs the commands that crashed before (view, check, report).
        for (const command of COMMANDS.filter((c) => ["view", "check", "report"].includes(c(file)[0] as string))) {
          const argv = [...command(file), "--json"];
          const run = spawnSync(process.execPath, [BIN, ...argv], { cwd: scratch, encoding: "utf8", timeout: 60_000 });
          expectClean({ exitCode: run.status, stdout: run.stdout, stderr: run.stderr }, argv, true);
        }
        expect(sha(file)).toBe(before);
      });
    },
    240_000,
  );
});
