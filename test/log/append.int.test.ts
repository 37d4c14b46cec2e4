import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AppendRefused, appendEntries, newEntryId } from "../../src/log/append.js";
import { LockError, withFileLock } from "../../src/log/file-lock.js";
import { readSessionFile } from "../../src/log/read-session.js";
import { hostRead } from "../helpers/host.js";
import { SessionBuilder } from "../synth/session-builder.js";
import { compileKit } from "./fixtures/compile-kit.js";

/** When set, every Buffer write of the appender writes at most this many bytes (a short write). */
const shortWrites = vi.hoisted(() => ({ max: 0 }));
vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  const writeSync = ((fd: number, data: unknown, ...rest: unknown[]) => {
    if (shortWrites.max > 0 && Buffer.isBuffer(data)) {
      const offset = (rest[0] as number | undefined) ?? 0;
      const length = Math.min(shortWrites.max, data.length - offset);
      return real.writeSync(fd, data, offset, length);
    }
    return (real.writeSync as (...args: unknown[]) => number)(fd, data, ...rest);
  }) as typeof real.writeSync;
  return { ...real, default: { ...real, writeSync }, writeSync };
});

const scratch = mkdtempSync(join(tmpdir(), "ck-append-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const CHILD = join(import.meta.dirname, "fixtures/append-child.mjs");
let appendModule = "";
beforeAll(() => {
  appendModule = join(compileKit(["src/log/append.ts"], join(scratch, "kit")), "src/log/append.js");
});

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const ID = /^[0-9a-f]{8}$/;

let counter = 0;
function sessionFile(content?: string | Buffer): string {
  const file = join(scratch, `session-${++counter}.jsonl`);
  if (content !== undefined) {
    writeFileSync(file, content);
    return file;
  }
  const b = new SessionBuilder();
  b.user("hello");
  b.assistant("hi");
  const u = b.user("branch me");
  b.assistant("ok");
  b.at(u);
  b.assistant("other branch");
  writeFileSync(file, b.toJsonl());
  return file;
}

const note = (n: number) => ({
  type: "custom" as const,
  customType: "ck-test",
  data: { n },
  parentId: null,
  timestamp: "2026-01-01T00:00:00.000Z",
});

/** Every line after the header is one whole JSON object with an 8-hex id. */
function wholeRecords(bytes: Buffer): Record<string, unknown>[] {
  expect(bytes.at(-1)).toBe(0x0a);
  const lines = bytes.toString("utf8").split("\n").slice(0, -1);
  expect(JSON.parse(lines[0] as string)).toMatchObject({ type: "session" });
  return lines.slice(1).map((line) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    expect(record.id).toMatch(ID);
    return record;
  });
}

describe("appendEntries", () => {
  it("keeps the prefix byte for byte and returns the proof", () => {
    const file = sessionFile();
    const before = readFileSync(file);
    const log = readSessionFile(file);
    const taken = new Set(log.entries.map((e) => e.id));
    const result = appendEntries(file, taken, [note(1), note(2), note(3)]);
    const after = readFileSync(file);

    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(result.prefix).toEqual({ bytes: before.length, sha256: sha256(before) });
    expect(result.after).toEqual({ bytes: after.length, sha256: sha256(after) });
    expect(sha256(after.subarray(0, result.prefix.bytes))).toBe(result.prefix.sha256);

    expect(result.ids).toHaveLength(3);
    for (const id of result.ids) {
      expect(id).toMatch(ID);
      expect(taken.has(id)).toBe(false);
    }
    const tail = after.subarray(before.length).toString("utf8");
    expect(tail.split("\n")).toHaveLength(4);
    expect(tail.endsWith("\n")).toBe(true);

    const reread = readSessionFile(file);
    expect(reread.diagnostics).toEqual([]);
    expect(reread.entries.map((e) => e.id)).toEqual([...log.entries.map((e) => e.id), ...result.ids]);
    expect(new Set(reread.entries.map((e) => e.id)).size).toBe(reread.entries.length);
    // The host reads the appended records too.
    expect(
      hostRead(after.toString("utf8"))
        .entries.slice(-3)
        .map((e) => e.id),
    ).toEqual(result.ids);
    expect(existsSync(`${file}.context-kit.lock`)).toBe(false);
  });

  it("ids are 8 hex, unique in the file even when the random source collides", () => {
    const taken = new Set(["00000000", "80000000"]);
    const draws = [0, 0.5, 0, 0.25];
    const random = () => draws.shift() ?? 0.75;
    expect(newEntryId(taken, random)).toBe("40000000");
    const file = sessionFile();
    const ids = new Set(readSessionFile(file).entries.map((e) => e.id));
    for (let i = 0; i < 50; i++) for (const id of appendEntries(file, ids, [note(i), note(i)]).ids) ids.add(id);
    const records = wholeRecords(readFileSync(file));
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
    expect(records).toHaveLength(5 + 100);
  });

  it("keeps an id the caller gives", () => {
    const file = sessionFile();
    expect(appendEntries(file, new Set(), [{ ...note(1), id: "abcdef01" }]).ids).toEqual(["abcdef01"]);
    expect(readSessionFile(file).entries.at(-1)?.id).toBe("abcdef01");
  });

  it("finishes a short write: only whole lines are appended", () => {
    const file = sessionFile();
    const before = readFileSync(file);
    const long = { ...note(2), data: { text: "x".repeat(500) } };
    shortWrites.max = 7;
    try {
      appendEntries(file, new Set(), [note(1), long]);
    } finally {
      shortWrites.max = 0;
    }
    const after = readFileSync(file);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(wholeRecords(after)).toHaveLength(5 + 2);
  });

  it("appends to CRLF and BOM files, which the host reads", () => {
    const b = new SessionBuilder();
    b.user("hello");
    const file = sessionFile(`\uFEFF${b.toJsonl().replace(/\n/g, "\r\n")}`);
    const { ids } = appendEntries(file, new Set(), [note(1)]);
    const log = readSessionFile(file);
    expect(log.diagnostics).toEqual([]);
    expect(log.entries.map((e) => e.id).at(-1)).toBe(ids[0]);
  });

  const refusals: [string, string | Buffer, AppendRefused["code"]][] = [
    ["a truncated last line", `${sessionFileText()}{"type":"custom","id":"0000aaaa","par`, "E_TRUNCATED_TAIL"],
    ["a last line without its newline", sessionFileText().slice(0, -1), "E_TRUNCATED_TAIL"],
    ["an empty file", "", "E_BAD_HEADER"],
    ["a damaged header line", `{"type":"sess\n${sessionFileText().split("\n").slice(1).join("\n")}`, "E_BAD_HEADER"],
    [
      "a header without an id",
      `{"type":"session","version":3}\n${sessionFileText().split("\n").slice(1).join("\n")}`,
      "E_BAD_HEADER",
    ],
    ["an entry before the header", sessionFileText().split("\n").reverse().join("\n").slice(1) + "\n", "E_BAD_HEADER"],
  ];

  it.each(refusals)("refuses to append after %s: nothing written, a code and how to repair", (_name, content, code) => {
    const file = sessionFile(content);
    const before = readFileSync(file);
    let refused: unknown;
    try {
      appendEntries(file, new Set(), [note(1)]);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppendRefused);
    expect((refused as AppendRefused).code).toBe(code);
    const message = (refused as Error).message;
    expect(message).toContain(file);
    expect(message).toMatch(/Repair:|no session header/);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(`${file}.context-kit.lock`)).toBe(false);
  });
});

function sessionFileText(): string {
  const b = new SessionBuilder();
  b.user("hello");
  b.assistant("hi");
  return b.toJsonl();
}

describe("the lock between kit processes", () => {
  it("waits for a live owner, then gives up with E_LOCKED", () => {
    const file = sessionFile();
    writeFileSync(`${file}.context-kit.lock`, String(process.pid));
    const started = Date.now();
    let error: unknown;
    try {
      withFileLock(file, () => "never", 100);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LockError);
    expect((error as LockError).code).toBe("E_LOCKED");
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(readFileSync(`${file}.context-kit.lock`, "utf8")).toBe(String(process.pid));
  });

  it("takes over the lock of a process that is gone", async () => {
    const file = sessionFile();
    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => gone.once("exit", resolve));
    writeFileSync(`${file}.context-kit.lock`, String(gone.pid));
    expect(appendEntries(file, new Set(), [note(1)]).ids).toHaveLength(1);
    expect(existsSync(`${file}.context-kit.lock`)).toBe(false);
  });
});

interface Proof {
  prefix: { bytes: number; sha256: string };
  after: { bytes: number; sha256: string };
  ids: string[];
}

interface Child {
  process: ChildProcess;
  /** Resolves when the child has printed `lines` lines (or has exited). */
  printed(lines: number): Promise<void>;
  /** Starts a child spawned with `wait`. */
  go(): void;
  /** Its stdout, once it has exited (killed or not). */
  output: Promise<string>;
}

const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
});

function runChild(file: string, tag: string, count: string, pad: number, wait = false): Child {
  const args = [CHILD, appendModule, file, tag, count, String(pad), ...(wait ? ["wait"] : [])];
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] });
  running.add(child);
  let stdout = "";
  let stderr = "";
  const waiters: { lines: number; resolve: () => void }[] = [];
  const wake = (all: boolean) => {
    const lines = stdout.split("\n").length - 1;
    for (const w of [...waiters]) {
      if (all || lines >= w.lines) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    wake(false);
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const output = new Promise<string>((resolve, reject) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      wake(true);
      if (code === 0 || signal === "SIGKILL") resolve(stdout);
      else reject(new Error(`append child ${tag} exited ${code ?? signal}: ${stderr}`));
    });
  });
  output.catch(() => {});
  return {
    process: child,
    printed: (lines) =>
      child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiters.push({ lines, resolve });
            wake(false);
          }),
    go: () => child.stdin.end("go\n"),
    output,
  };
}

describe("an append cut short by a killed process", () => {
  const journalOf = (file: string) => `${file}.context-kit.journal`;
  const cutShort = (file: string, keep: number) => {
    const at = readFileSync(file).length;
    const payload = `${JSON.stringify({ ...note(7), id: "0000aaaa" })}\n${JSON.stringify({ ...note(8), id: "0000bbbb" })}\n`;
    writeFileSync(journalOf(file), JSON.stringify({ at, payload }));
    appendFileSync(file, payload.slice(0, keep));
    return payload;
  };

  it("is completed by the next appender, which then appends its own records", () => {
    const file = sessionFile();
    const original = readFileSync(file);
    const payload = cutShort(file, 30);
    const { ids } = appendEntries(file, new Set(), [note(9)]);
    const after = readFileSync(file);
    expect(after.subarray(0, original.length).equals(original)).toBe(true);
    expect(after.subarray(original.length, original.length + payload.length).toString()).toBe(payload);
    expect(
      wholeRecords(after)
        .map((r) => r.id)
        .slice(-3),
    ).toEqual(["0000aaaa", "0000bbbb", ids[0]]);
    expect(existsSync(journalOf(file))).toBe(false);
    expect(readSessionFile(file).diagnostics).toEqual([]);
  });

  it("is not repeated when it had finished", () => {
    const file = sessionFile();
    const payload = cutShort(file, Number.POSITIVE_INFINITY);
    const full = readFileSync(file);
    appendEntries(file, new Set(), [note(9)]);
    const after = readFileSync(file);
    expect(after.subarray(0, full.length).equals(full)).toBe(true);
    expect(after.toString().split(payload)).toHaveLength(2);
    expect(existsSync(journalOf(file))).toBe(false);
  });

  it("is left alone when the bytes after it are not its own, and the torn tail is refused", () => {
    const file = sessionFile();
    const at = readFileSync(file).length;
    writeFileSync(journalOf(file), JSON.stringify({ at, payload: '{"type":"custom","id":"0000aaaa"}\n' }));
    appendFileSync(file, '{"type":"message","id":"0000cc');
    const before = readFileSync(file);
    expect(() => appendEntries(file, new Set(), [note(9)])).toThrow(AppendRefused);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(journalOf(file))).toBe(false);
  });

  it("ignores a journal that was itself cut short", () => {
    const file = sessionFile();
    const before = readFileSync(file);
    writeFileSync(journalOf(file), '{"at":12,"payload":"{\\"ty');
    const { ids } = appendEntries(file, new Set(), [note(9)]);
    const after = readFileSync(file);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(wholeRecords(after).at(-1)?.id).toBe(ids[0]);
    expect(existsSync(journalOf(file))).toBe(false);
  });
});

describe("appending from several processes", () => {
  it("two concurrent appenders never interleave, and every proof holds", async () => {
    const file = sessionFile();
    const appends = 80;
    const children = [runChild(file, "a", String(appends), 300, true), runChild(file, "b", String(appends), 300, true)];
    await Promise.all(children.map((c) => c.printed(1)));
    for (const c of children) c.go();
    const [a, b] = (await Promise.all(children.map((c) => c.output))).map((out) => out.replace(/^ready\n/, ""));
    const bytes = readFileSync(file);
    const records = wholeRecords(bytes);
    const perChild = Array.from({ length: appends }, (_, n) => 1 + (n % 3)).reduce((x, y) => x + y, 0);
    expect(records).toHaveLength(5 + 2 * perChild);
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);

    const proofs = [...(a as string).split("\n"), ...(b as string).split("\n")]
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Proof);
    expect(proofs).toHaveLength(2 * appends);
    for (const proof of proofs) {
      expect(sha256(bytes.subarray(0, proof.prefix.bytes))).toBe(proof.prefix.sha256);
      expect(sha256(bytes.subarray(0, proof.after.bytes))).toBe(proof.after.sha256);
    }
    // Each append starts where another one ended: the locked sections are serial.
    const boundaries = new Set(proofs.map((p) => p.after.bytes));
    for (const proof of proofs) {
      if (proof.prefix.bytes !== proofs.reduce((m, p) => Math.min(m, p.prefix.bytes), Infinity)) {
        expect(boundaries.has(proof.prefix.bytes)).toBe(true);
      }
    }
    for (const tag of ["a", "b"]) {
      const mine = records.filter((r) => (r.data as { tag?: string } | undefined)?.tag === tag);
      const order = mine.map((r) => (r.data as { n: number; k: number }).n * 10 + (r.data as { k: number }).k);
      expect(order).toEqual([...order].sort((x, y) => x - y));
    }
    expect(readSessionFile(file).diagnostics).toEqual([]);
    expect(existsSync(`${file}.context-kit.lock`)).toBe(false);
  });

  it("a process killed with SIGKILL mid-append leaves the old file, plus whole records only", async () => {
    const file = sessionFile();
    let seed = 20260101;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 0x100000000;
    };
    // A write() of several pages is not atomic under SIGKILL (Linux checks for fatal signals between pages): a kill
    // may leave part of the records, which the journal names and the next appender completes.
    let grew = 0;
    let killedInside = 0;
    // The next child loads while the current one runs, so a round costs little more than its appends.
    // Every other round appends records of tens of KB, many pages per write.
    const pad = (round: number) => 1 + Math.floor(random() * (round % 2 ? 12_000 : 400));
    let next = runChild(file, "k0", "forever", pad(0), true);
    for (let round = 0; round < 20; round++) {
      const child = next;
      await child.printed(1);
      const before = readFileSync(file);
      child.go();
      if (round < 19) next = runChild(file, `k${round + 1}`, "forever", pad(round + 1), true);
      await child.printed(2);
      await new Promise((resolve) => setTimeout(resolve, random() * 25));
      child.process.kill("SIGKILL");
      const printed = await child.output;
      expect(printed.startsWith("ready\n{")).toBe(true);

      const after = readFileSync(file);
      expect(after.subarray(0, before.length).equals(before), `round ${round}: prefix`).toBe(true);
      const whole = after.subarray(0, after.lastIndexOf(0x0a) + 1);
      if (whole.length < after.length) {
        const journal = JSON.parse(readFileSync(`${file}.context-kit.journal`, "utf8")) as {
          at: number;
          payload: string;
        };
        const cut = after.subarray(journal.at);
        expect(Buffer.from(journal.payload).subarray(0, cut.length).equals(cut), `round ${round}: torn tail`).toBe(
          true,
        );
      }
      const records = wholeRecords(whole);
      expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
      if (after.length > before.length) grew++;
      // A kill inside the locked section leaves the lock behind (the next appender takes it over).
      if (existsSync(`${file}.context-kit.lock`)) killedInside++;
    }
    expect(killedInside).toBeGreaterThan(0);
    expect(grew).toBe(20);
    // A lock left behind by a killed appender is taken over; a cut-short write is completed; the file reads clean.
    const before = readFileSync(file);
    expect(appendEntries(file, new Set(), [note(0)]).ids).toHaveLength(1);
    const final = readFileSync(file);
    expect(final.subarray(0, before.length).equals(before)).toBe(true);
    expect(wholeRecords(final).length).toBeGreaterThan(20);
    expect(readSessionFile(file).diagnostics).toEqual([]);
    expect(existsSync(`${file}.context-kit.journal`)).toBe(false);
  });
});
