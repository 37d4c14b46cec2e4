import { expect } from "vitest";
import type { LoadedSession } from "../../src/session.js";
import { SessionBuilder } from "../../src/synth/session-builder.js";

/**
 * How the kit's entries are compared with the host's (`SessionManager`'s load: parse, header check, migrate):
 * - `exact`: equal, entry for entry;
 * - `positional`: equal once ids are replaced by positions (v1: the host picks random ids);
 * - `skeleton`: same ids and types (records too deep for a recursive deep-equal);
 * - `objects`: the host also keeps JSON values that are not objects, which the kit drops and reports;
 * - `without-dropped`: the host also keeps the records the kit drops as unaddressable (no string id).
 */
export type HostComparison = "exact" | "positional" | "skeleton" | "objects" | "without-dropped";

export interface Variant {
  name: string;
  bytes: Buffer;
  /** Every diagnostic of `loadSession`, as `CODE@line`, in line order. */
  expected: string[];
  entries: number;
  unusable?: boolean;
  host: HostComparison;
  /** The host's own context building throws on this file (the kit's must not). */
  hostContextThrows?: boolean;
  /** Also open a scratch copy with the host's SessionManager and compare leaves and the active leaf. */
  sessionManager?: boolean;
  /** Runs the reads (kit and host) inside, e.g. with JSON.parse stubbed. */
  around?: <T>(read: () => T) => T;
  check?: (session: LoadedSession) => void;
}

export interface BaseSession {
  lines: string[];
  ids: { u1: string; a1: string; u2: string; a2: string; u3: string; a3: string };
}

/** Header, then u1 → a1 → u2 → a2, and a branch a1 → u3 → a3 (lines 1..7). */
export function baseSession(): BaseSession {
  const b = new SessionBuilder();
  const u1 = b.user("hello");
  const a1 = b.assistant("hi there");
  const u2 = b.user("write the report");
  const a2 = b.assistant("done");
  b.at(a1);
  const u3 = b.user("no, the summary");
  const a3 = b.assistant("summary done");
  const lines = b.toJsonl().split("\n").slice(0, -1);
  return { lines, ids: { u1, a1, u2, a2, u3, a3 } };
}

export const jsonl = (lines: readonly string[]) => `${lines.join("\n")}\n`;

/** Parses a line, lets `fn` change the record, and writes it back. */
export function edit(line: string, fn: (record: Record<string, unknown>) => void): string {
  const record = JSON.parse(line) as Record<string, unknown>;
  fn(record);
  return JSON.stringify(record);
}

function message(record: Record<string, unknown>): Record<string, unknown> {
  return record.message as Record<string, unknown>;
}

/** Replaces `"key":1` in a serialised record with raw JSON text (for values that are expensive to build). */
function withRaw(line: string, key: string, raw: string): string {
  const record = JSON.parse(line) as Record<string, unknown>;
  record[key] = 1;
  return JSON.stringify(record).replace(`"${key}":1`, `"${key}":${raw}`);
}

export const nestedArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

/** Depth of `[[[...]]]` without recursion. */
export function arrayDepth(value: unknown): number {
  let depth = 0;
  let cursor = value;
  while (Array.isArray(cursor)) {
    depth++;
    cursor = cursor[0];
  }
  return depth;
}

const buf = (text: string) => Buffer.from(text, "utf8");

export function buildVariants(): Variant[] {
  const { lines: L, ids } = baseSession();
  const [header, u1, a1, u2, a2, u3, a3] = L as [string, string, string, string, string, string, string];
  const v1Header = JSON.stringify({
    type: "session",
    id: "v1-session",
    timestamp: "2025-01-01T00:00:00.000Z",
    cwd: "/p",
  });
  const v1Entries = [
    { type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "one", timestamp: 1 } },
    {
      type: "message",
      timestamp: "2025-01-01T00:00:02.000Z",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "two" }],
        provider: "p",
        model: "m",
        stopReason: "stop",
        timestamp: 2,
      },
    },
    {
      type: "message",
      timestamp: "2025-01-01T00:00:03.000Z",
      message: { role: "user", content: "three", timestamp: 3 },
    },
    // firstKeptEntryIndex counts parsed records, the header included: 3 is "three".
    {
      type: "compaction",
      timestamp: "2025-01-01T00:00:04.000Z",
      summary: "S",
      firstKeptEntryIndex: 3,
      tokensBefore: 9,
    },
    {
      type: "message",
      timestamp: "2025-01-01T00:00:05.000Z",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "four" }],
        provider: "p",
        model: "m",
        stopReason: "stop",
        timestamp: 5,
      },
    },
  ].map((e) => JSON.stringify(e));
  const hook = edit(u2, (r) => {
    r.message = { role: "hookMessage", customType: "note", content: "from a hook", display: true, timestamp: 7 };
  });
  const withoutTail = jsonl(L).slice(0, -1);
  const deepStub = <T>(read: () => T): T => {
    const parse = JSON.parse;
    JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
      if (typeof text === "string" && text.includes("[[[[[[[[[[[[[[[[")) {
        throw new RangeError("Maximum call stack size exceeded");
      }
      return parse(text, reviver);
    }) as typeof JSON.parse;
    try {
      return read();
    } finally {
      JSON.parse = parse;
    }
  };
  const utf8Broken = Buffer.concat([
    buf(`${[header, u1].join("\n")}\n`),
    buf(a1.split("hi there")[0] as string),
    Buffer.from([0x68, 0xff, 0xfe, 0xc3, 0x69]),
    buf(`${a1.split("hi there")[1]}\n${[u2, a2, u3, a3].join("\n")}\n`),
  ]);

  return [
    { name: "empty file", bytes: buf(""), expected: ["E_NO_HEADER@1"], entries: 0, unusable: true, host: "exact" },
    {
      name: "blank lines only",
      bytes: buf("\n  \n\r\n\t\n"),
      expected: ["E_NO_HEADER@1"],
      entries: 0,
      unusable: true,
      host: "exact",
    },
    {
      name: "header only",
      bytes: buf(jsonl([header])),
      expected: [],
      entries: 0,
      host: "exact",
      sessionManager: true,
      check: (s) => expect(s.tree.activeLeafId).toBeNull(),
    },
    {
      name: "header only, no trailing newline",
      bytes: buf(header),
      expected: ["E_TRUNCATED_TAIL@1"],
      entries: 0,
      host: "exact",
    },
    {
      name: "header not first",
      bytes: buf(jsonl([u1, header, a1, u2])),
      expected: ["E_NO_HEADER@1"],
      entries: 0,
      unusable: true,
      host: "exact",
      sessionManager: true,
      check: (s) => expect(s.diagnostics[0]?.message).toMatch(/header is at line 2, not first.*discard all 4 records/),
    },
    {
      name: "no header at all",
      bytes: buf(jsonl([u1, a1])),
      expected: ["E_NO_HEADER@1"],
      entries: 0,
      unusable: true,
      host: "exact",
    },
    {
      name: "header with no id",
      bytes: buf(jsonl([edit(header, (r) => delete r.id), u1, a1])),
      expected: ["E_BAD_HEADER@1"],
      entries: 0,
      unusable: true,
      host: "exact",
      sessionManager: true,
    },
    {
      name: "header with a numeric id",
      bytes: buf(jsonl([edit(header, (r) => (r.id = 42)), u1])),
      expected: ["E_BAD_HEADER@1"],
      entries: 0,
      unusable: true,
      host: "exact",
    },
    {
      name: "damaged header line",
      bytes: buf(jsonl([header.slice(0, 40), u1, a1])),
      expected: ["E_JSON@1", "E_BAD_HEADER@1"],
      entries: 0,
      unusable: true,
      host: "exact",
    },
    {
      name: "blank lines, then a damaged header line",
      bytes: buf(jsonl(["", "   ", header.slice(0, 40), u1])),
      expected: ["E_JSON@3", "E_BAD_HEADER@3"],
      entries: 0,
      unusable: true,
      host: "exact",
    },
    {
      name: "a junk line before a good header (the host skips it and takes the next record)",
      bytes: buf(jsonl(["garbage", header, u1, a1])),
      expected: ["E_JSON@1"],
      entries: 2,
      host: "exact",
      sessionManager: true,
    },
    {
      name: "the first record is a JSON number, not an object",
      bytes: buf(jsonl(["42", header, u1])),
      expected: ["E_NOT_OBJECT@1", "E_BAD_HEADER@1"],
      entries: 0,
      unusable: true,
      host: "exact",
    },
    {
      name: "a broken escape in the middle: the line is dropped and its branches orphaned",
      bytes: buf(jsonl([header, u1, a1.replace("hi there", "hi \\q there"), u2, a2, u3, a3])),
      expected: ["E_JSON@3", "E_MISSING_PARENT@4", "E_MISSING_PARENT@6"],
      entries: 5,
      host: "exact",
      sessionManager: true,
      check: (s) => {
        const json = s.diagnostics[0]!;
        expect(json.message).toContain(`the host drops entry ${ids.a1}`);
        expect(json.message).toContain(`4 entries lose their path to the root (leaves ${ids.a2}, ${ids.a3})`);
        for (const orphan of s.diagnostics.slice(1)) {
          expect(orphan.message).toContain(`parent ${ids.a1} is not in the file`);
          expect(orphan.message).toContain("(it was on line 3, which the host drops)");
        }
        expect(s.tree.roots).toEqual([ids.u1, ids.u2, ids.u3]);
        expect(s.log.dropped).toMatchObject([{ line: 3, code: "E_JSON", ids: [ids.a1], types: ["message"] }]);
      },
    },
    {
      name: "a line cut short in the middle (its id is lost too)",
      bytes: buf(jsonl([header, u1, a1.slice(0, 20), u2, a2, u3, a3])),
      expected: ["E_JSON@3", "E_MISSING_PARENT@4", "E_MISSING_PARENT@6"],
      entries: 5,
      host: "exact",
    },
    {
      name: "a dropped compaction is called out",
      bytes: buf(
        jsonl([
          header,
          u1,
          a1,
          edit(u2, (r) => {
            r.type = "compaction";
            r.summary = "S";
            r.firstKeptEntryId = ids.u1;
            r.tokensBefore = 5;
            delete r.message;
          }).replace('"summary":"S"', '"summary":"S\\x"'),
          a2,
        ]),
      ),
      expected: ["E_JSON@4", "E_MISSING_PARENT@5"],
      entries: 3,
      host: "exact",
      check: (s) => expect(s.diagnostics[0]?.message).toContain("a compaction is lost: its summary leaves the context"),
    },
    {
      name: "two JSON records on one line",
      bytes: buf(jsonl([header, u1, a1 + u2, a2, u3, a3])),
      expected: ["E_TWO_RECORDS@3", "E_MISSING_PARENT@4", "E_MISSING_PARENT@5"],
      entries: 4,
      host: "exact",
      sessionManager: true,
      check: (s) => {
        expect(s.diagnostics[0]?.message).toContain(`(${ids.a1}, ${ids.u2}): the host drops both`);
        expect(s.log.dropped[0]).toMatchObject({ code: "E_TWO_RECORDS", ids: [ids.a1, ids.u2] });
      },
    },
    {
      name: "a record glued onto a truncated one (Pi's append after a crash)",
      bytes: buf(jsonl([header, u1, a1.slice(0, 60) + u2, a2])),
      expected: ["E_JSON@3", "E_MISSING_PARENT@4"],
      entries: 2,
      host: "exact",
    },
    {
      name: "truncated last line that still parses",
      bytes: buf(withoutTail),
      expected: ["E_TRUNCATED_TAIL@7"],
      entries: 6,
      host: "exact",
      sessionManager: true,
      check: (s) => expect(s.log.endsWithNewline).toBe(false),
    },
    {
      name: "truncated last line that does not parse",
      bytes: buf(withoutTail.slice(0, -15)),
      expected: ["E_TRUNCATED_TAIL@7", "E_JSON@7"],
      entries: 5,
      host: "exact",
      check: (s) => expect(s.tree.activeLeafId).toBe(ids.u3),
    },
    {
      name: "CRLF file truncated after the CR",
      bytes: buf(`${L.join("\r\n")}\r`),
      expected: ["E_TRUNCATED_TAIL@7"],
      entries: 6,
      host: "exact",
    },
    {
      name: "NUL bytes inside a line",
      bytes: buf(jsonl([header, u1, a1.replace("hi there", "hi\u0000there"), u2, a2, u3, a3])),
      expected: ["E_NUL@3", "E_MISSING_PARENT@4", "E_MISSING_PARENT@6"],
      entries: 5,
      host: "exact",
    },
    {
      name: "a NUL-filled tail (a crash before the data reached the disk)",
      bytes: Buffer.concat([buf(jsonl(L)), Buffer.alloc(512)]),
      expected: ["E_TRUNCATED_TAIL@8", "E_NUL@8"],
      entries: 6,
      host: "exact",
    },
    {
      name: "invalid UTF-8 inside a string",
      bytes: utf8Broken,
      expected: ["E_UTF8@3"],
      entries: 6,
      host: "exact",
      check: (s) => {
        const entry = s.log.entries[1] as { message: { content: { text: string }[] } };
        expect(entry.message.content[0]?.text).toContain("\uFFFD");
      },
    },
    {
      name: "CRLF line endings",
      bytes: buf(`${L.join("\r\n")}\r\n`),
      expected: [],
      entries: 6,
      host: "exact",
      sessionManager: true,
    },
    {
      name: "UTF-8 byte order mark",
      bytes: buf(`\uFEFF${jsonl(L)}`),
      expected: [],
      entries: 6,
      host: "exact",
      sessionManager: true,
      check: (s) => expect(s.log.header?.id).toBe(JSON.parse(header).id),
    },
    {
      name: "byte order mark and CRLF",
      bytes: buf(`\uFEFF${L.join("\r\n")}\r\n`),
      expected: [],
      entries: 6,
      host: "exact",
    },
    {
      name: "a byte order mark in the middle of the file breaks that line",
      bytes: buf(jsonl([header, u1, `\uFEFF${a1}`, u2, a2, u3, a3])),
      expected: ["E_JSON@3", "E_MISSING_PARENT@4", "E_MISSING_PARENT@6"],
      entries: 5,
      host: "exact",
    },
    {
      name: "blank lines everywhere",
      bytes: buf(jsonl(["", "  ", header, "", u1, "\t", a1, "\r", u2, a2, "", u3, a3, "", ""])),
      expected: [],
      entries: 6,
      host: "exact",
      check: (s) => expect(s.log.positions.map((p) => p.line)).toEqual([5, 7, 9, 10, 12, 13]),
    },
    {
      name: "blank lines count in line numbers",
      bytes: buf(jsonl([header, "", "", u1, edit(a1, (r) => (r.type = "future_thing")), u2])),
      expected: ["W_UNKNOWN_TYPE@5"],
      entries: 3,
      host: "exact",
    },
    {
      name: "a 20 MB line",
      bytes: buf(jsonl([header, edit(u1, (r) => (message(r).content = "x".repeat(20 * 1024 * 1024))), a1])),
      expected: ["W_LONG_LINE@2"],
      entries: 2,
      host: "exact",
      check: (s) =>
        expect((s.log.entries[0] as { message: { content: string } }).message.content).toHaveLength(20 * 1024 * 1024),
    },
    {
      name: "10k nested arrays in an extra field",
      bytes: buf(jsonl([header, u1, a1, u2, a2, u3, withRaw(a3, "nested", nestedArrays(10_000))])),
      expected: [],
      entries: 6,
      host: "skeleton",
      check: (s) => expect(arrayDepth((s.log.entries[5] as unknown as { nested: unknown }).nested)).toBe(10_000),
    },
    {
      name: "100k nested arrays in an extra field",
      bytes: buf(jsonl([header, u1, a1, u2, a2, u3, withRaw(a3, "nested", nestedArrays(100_000))])),
      expected: [],
      entries: 6,
      host: "skeleton",
    },
    {
      name: "10k nested arrays where the schema looks",
      bytes: buf(jsonl([header, withRaw(u1, "message", `{"role":"user","content":${nestedArrays(10_000)}}`), a1])),
      expected: ["E_SCHEMA@2"],
      entries: 2,
      host: "skeleton",
      check: (s) => expect(s.diagnostics[0]?.message).toMatch(/^\/message\/content/),
    },
    {
      name: "JSON.parse throwing RangeError on deep nesting",
      bytes: buf(jsonl([header, u1, a1, u2, a2, u3, withRaw(a3, "nested", nestedArrays(10_000))])),
      expected: ["E_JSON@7"],
      entries: 5,
      host: "exact",
      around: deepStub,
      check: (s) => expect(s.diagnostics[0]?.message).toContain("Maximum call stack size exceeded"),
    },
    {
      name: "a parent cycle",
      bytes: buf(jsonl([header, edit(u1, (r) => (r.parentId = ids.a2)), a1, u2, a2, u3, a3])),
      expected: ["E_CYCLE@2"],
      entries: 6,
      host: "exact",
      check: (s) => {
        expect(s.diagnostics[0]?.message).toContain(`${ids.u1} -> ${ids.a2} -> ${ids.u2} -> ${ids.a1}`);
        expect(s.tree.roots).toEqual([ids.u1]);
        expect(s.tree.pathTo(ids.a2).map((e) => e.id)).toEqual([ids.u1, ids.a1, ids.u2, ids.a2]);
      },
    },
    {
      name: "a self-parent",
      bytes: buf(jsonl([header, u1, a1, u2, a2, edit(u3, (r) => (r.parentId = ids.u3)), a3])),
      expected: ["E_CYCLE@6"],
      entries: 6,
      host: "exact",
      sessionManager: true,
      check: (s) => {
        expect(s.diagnostics[0]?.message).toContain("its own parent");
        expect(s.tree.roots).toEqual([ids.u1, ids.u3]);
        expect(s.tree.pathTo(ids.a3).map((e) => e.id)).toEqual([ids.u3, ids.a3]);
      },
    },
    {
      name: "a duplicate id (the later record wins, as in the host's index)",
      bytes: buf(jsonl([...L, edit(a3, (r) => (r.parentId = ids.a3)).replace(`"id":"${ids.a3}"`, `"id":"${ids.a2}"`)])),
      expected: ["E_DUPLICATE_ID@8"],
      entries: 7,
      host: "exact",
      check: (s) => {
        expect(s.diagnostics[0]?.message).toContain(`id ${ids.a2} was already used at line 5`);
        expect(s.tree.parentOf(ids.a2)).toBe(ids.a3);
        expect(s.tree.activeLeafId).toBe(ids.a2);
      },
    },
    {
      name: "a missing parent",
      bytes: buf(jsonl([header, u1, a1, u2, a2, edit(u3, (r) => (r.parentId = "deadbeef")), a3])),
      expected: ["E_MISSING_PARENT@6"],
      entries: 6,
      host: "exact",
      sessionManager: true,
      check: (s) => {
        expect(s.tree.orphans).toEqual([ids.u3]);
        expect(s.diagnostics[0]?.message).not.toContain("drops");
      },
    },
    {
      name: "an unknown entry type is kept",
      bytes: buf(
        jsonl([...L, edit(a3, (r) => Object.assign(r, { type: "future_thing", id: "0000ffff", parentId: ids.a3 }))]),
      ),
      expected: ["W_UNKNOWN_TYPE@8"],
      entries: 7,
      host: "exact",
      sessionManager: true,
      check: (s) => expect(s.tree.activeLeafId).toBe("0000ffff"),
    },
    {
      name: "an unknown message role is kept",
      bytes: buf(jsonl([header, u1, edit(a1, (r) => (message(r).role = "robot")), u2, a2, u3, a3])),
      expected: ["W_UNKNOWN_TYPE@3"],
      entries: 6,
      host: "exact",
      check: (s) => expect(s.diagnostics[0]?.message).toContain('unknown message role "robot"'),
    },
    {
      name: "schema: a missing required field",
      bytes: buf(jsonl([header, edit(u1, (r) => delete message(r).content), a1])),
      expected: ["E_SCHEMA@2"],
      entries: 2,
      host: "exact",
      check: (s) => expect(s.diagnostics[0]?.message).toBe("/message must have required property 'content'"),
    },
    {
      name: "schema: a field of the wrong type",
      bytes: buf(jsonl([header, u1, edit(a1, (r) => (message(r).model = 42)), u2])),
      expected: ["E_SCHEMA@3"],
      entries: 3,
      host: "exact",
      check: (s) => expect(s.diagnostics[0]?.message).toBe("/message/model must be string"),
    },
    {
      name: "schema: an entry without its message",
      bytes: buf(jsonl([header, u1, edit(a1, (r) => delete r.message)])),
      expected: ["E_SCHEMA@3"],
      entries: 2,
      host: "exact",
      hostContextThrows: true,
      check: (s) => expect(s.diagnostics[0]?.message).toBe("record must have required property 'message'"),
    },
    {
      name: "schema: an id that is not a string is dropped (the host keeps it, unaddressable)",
      bytes: buf(jsonl([header, u1, a1, u2, a2, edit(u3, (r) => (r.id = 5)), a3])),
      expected: ["E_SCHEMA@6", "E_MISSING_PARENT@7"],
      entries: 5,
      host: "without-dropped",
      check: (s) => expect(s.diagnostics[0]?.message).toContain("/id must be a string"),
    },
    {
      name: "JSON values that are not objects",
      bytes: buf(jsonl([header, u1, "42", '"text"', "[1,2]", "true", "null", a1])),
      expected: ["E_NOT_OBJECT@3", "E_NOT_OBJECT@4", "E_NOT_OBJECT@5", "E_NOT_OBJECT@6", "E_NOT_OBJECT@7"],
      entries: 2,
      host: "objects",
    },
    {
      name: "v1 file: ids derived from positions",
      bytes: buf(jsonl([v1Header, ...v1Entries])),
      expected: ["I_MIGRATED@1"],
      entries: 5,
      host: "positional",
      sessionManager: true,
      check: (s) => {
        const entries = s.log.entries;
        for (const [i, e] of entries.entries()) {
          expect(e.id).toMatch(/^[0-9a-f]{8}$/);
          expect(e.parentId).toBe(i === 0 ? null : entries[i - 1]?.id);
        }
        expect(entries[3]).toMatchObject({ type: "compaction", firstKeptEntryId: entries[2]?.id });
        expect(entries[3]).not.toHaveProperty("firstKeptEntryIndex");
        expect(s.log.sourceVersion).toBe(1);
      },
    },
    {
      name: "v1 file with a broken line: record indexes count parsed records, as the host's do",
      bytes: buf(jsonl([v1Header, "{broken", ...v1Entries.slice(0, 2), "{broken", ...v1Entries.slice(2)])),
      expected: ["I_MIGRATED@1", "E_JSON@2", "E_JSON@5"],
      entries: 5,
      host: "positional",
    },
    {
      name: "v2 file with a hookMessage role",
      bytes: buf(jsonl([edit(header, (r) => (r.version = 2)), u1, a1, hook, a2])),
      expected: ["I_MIGRATED@1"],
      entries: 4,
      host: "exact",
      sessionManager: true,
      check: (s) => {
        expect(s.log.sourceVersion).toBe(2);
        expect((s.log.entries[2] as { message: { role: string } }).message.role).toBe("custom");
      },
    },
    {
      name: "a second header",
      bytes: buf(jsonl([header, u1, a1, edit(header, (r) => (r.id = "other")), u2, a2])),
      expected: ["W_EXTRA_HEADER@4"],
      entries: 4,
      host: "exact",
      sessionManager: true,
      check: (s) => expect(s.log.header?.id).toBe(JSON.parse(header).id),
    },
    {
      name: "a newer format version",
      bytes: buf(jsonl([edit(header, (r) => (r.version = 4)), u1, a1])),
      expected: ["W_NEWER_VERSION@1"],
      entries: 2,
      host: "exact",
    },
    {
      name: "U+2028, U+2029 and U+0085 inside JSON strings do not split lines",
      bytes: buf(jsonl([header, u1, a1.replace("hi there", "hi\u2028the\u2029re\u0085!"), u2, a2, u3, a3])),
      expected: [],
      entries: 6,
      host: "exact",
      sessionManager: true,
      check: (s) => {
        const entry = s.log.entries[1] as { message: { content: { text: string }[] } };
        expect(entry.message.content[0]?.text).toBe("hi\u2028the\u2029re\u0085!");
      },
    },
  ];
}
