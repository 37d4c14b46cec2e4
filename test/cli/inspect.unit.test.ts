import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { loadSession } from "../../src/session.js";
import { SessionBuilder } from "../synth/session-builder.js";

const ROOT = join(import.meta.dirname, "../..");
const SAMPLE = "evidence-samples/stalled-school-session.jsonl";
const BRANCHED = "evidence-samples/branched-school-session.jsonl";

const scratch = mkdtempSync(join(tmpdir(), "ck-inspect-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const inspect = (args: string[], cwd = scratch) => runCli(["inspect", ...args], { cwd });
const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;
/** `inspect --json` is `{files, summary}` whatever the number of files: the one file's report. */
const only = (stdout: string) => {
  const files = json(stdout).files as Record<string, unknown>[];
  expect(files).toHaveLength(1);
  return files[0] as Record<string, unknown>;
};

function fingerprint(path: string) {
  const stat = statSync(path);
  return { sha: createHash("sha256").update(readFileSync(path)).digest("hex"), size: stat.size, mtime: stat.mtimeMs };
}

/** u1 → a1 → u2 → a2 and a1 → u3; a label on u1 and a compaction on the first branch. */
function sessionText(): { text: string; ids: Record<string, string> } {
  const b = new SessionBuilder();
  const u1 = b.user("hello");
  const a1 = b.assistant("hi");
  const u2 = b.user("go on");
  const c = b.compaction("summary", u2);
  const a2 = b.assistant("done");
  b.at(a1);
  const u3 = b.user("instead");
  const label = b.label(u1, "start");
  return { text: b.toJsonl(), ids: { u1, a1, u2, c, a2, u3, label } };
}

function write(name: string, content: string | Buffer): string {
  const path = join(scratch, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
  return path;
}

/** A readable file with an error diagnostic: a line the host drops, whose child becomes an orphan. */
function damagedText(): string {
  const lines = sessionText().text.split("\n");
  lines[2] = (lines[2] as string).replace('"text":"hi"', '"text":"h\\qi"');
  return lines.join("\n");
}

describe("context-kit inspect --json: the contract fields", () => {
  it("reports header, counts, roots, leaves with depth, the active leaf and diagnostics", async () => {
    const { text, ids } = sessionText();
    const file = write("good.jsonl", text);
    const out = await inspect(["good.jsonl", "--json"]);
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toBe("");
    expect(json(out.stdout).summary).toEqual({ files: 1, outcomes: { ok: 1 } });
    const report = only(out.stdout);
    expect(report).toMatchObject({
      file: "good.jsonl",
      header: { type: "session", version: 3, id: "01a16ecb-97a2-771e-b335-b7aca163bc36", cwd: "/home/user/project" },
      entries: 7,
      byType: { "message:user": 3, "message:assistant": 2, compaction: 1, label: 1 },
      activeLeafId: ids.label,
      roots: [ids.u1],
      leaves: [
        { id: ids.a2, depth: 4 },
        { id: ids.label, depth: 3 },
      ],
      compactions: [ids.c],
      labels: { [ids.u1 as string]: "start" },
      diagnostics: [],
    });
    expect(Object.values(report.byType as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(report.entries);
    // The same numbers as the library.
    const { tree } = loadSession(file);
    expect(report.leaves).toEqual(tree.leaves().map((id) => ({ id, depth: tree.depth(id) })));
  });

  it("lists diagnostics with line, byte offset, code, severity and message; exit 0 while readable", async () => {
    const text = damagedText();
    const file = write("damaged.jsonl", text);
    const before = fingerprint(file);
    const out = await inspect([file, "--json"]);
    expect(out.exitCode).toBe(0);
    const report = only(out.stdout);
    const diagnostics = report.diagnostics as Record<string, unknown>[];
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["E_JSON", 3],
      ["E_MISSING_PARENT", 4],
      ["E_MISSING_PARENT", 7],
    ]);
    const lineTwoEnd = text.indexOf("\n", text.indexOf("\n") + 1) + 1;
    expect(diagnostics[0]).toMatchObject({ line: 3, byteOffset: lineTwoEnd, code: "E_JSON", severity: "error" });
    for (const d of diagnostics) {
      expect(Object.keys(d).sort()).toEqual(
        expect.arrayContaining(["byteOffset", "code", "line", "message", "severity"]),
      );
      expect(typeof d.message).toBe("string");
      expect(typeof d.byteOffset).toBe("number");
    }
    expect(fingerprint(file)).toEqual(before);
  });

  it("--strict exits 1 on an error diagnostic, and stays 0 on warnings only", async () => {
    write("damaged.jsonl", damagedText());
    expect((await inspect(["damaged.jsonl", "--strict"])).exitCode).toBe(1);
    const { text } = sessionText();
    const lines = text.split("\n");
    lines.splice(2, 0, JSON.stringify({ type: "future_thing", id: "0000ffff", parentId: null, timestamp: "t" }));
    write("warning.jsonl", lines.join("\n"));
    const out = await inspect(["warning.jsonl", "--strict", "--json"]);
    expect((only(out.stdout).diagnostics as { code: string }[]).map((d) => d.code)).toEqual(["W_UNKNOWN_TYPE"]);
    expect(out.exitCode).toBe(0);
    expect((await inspect(["good.jsonl", "--strict"])).exitCode).toBe(0);
  });

  it("several files give {files: [...]} in the order named", async () => {
    write("a.jsonl", sessionText().text);
    write("b.jsonl", damagedText());
    const out = await inspect(["b.jsonl", "a.jsonl", "--json"]);
    expect(out.exitCode).toBe(0);
    const files = json(out.stdout).files as { file: string; entries: number }[];
    expect(files.map((f) => [f.file, f.entries])).toEqual([
      ["b.jsonl", 6],
      ["a.jsonl", 7],
    ]);
  });

  it("a folder stands for every .jsonl below it, in name order", async () => {
    write("tree/z.jsonl", sessionText().text);
    write("tree/sub/m.jsonl", sessionText().text);
    write("tree/a.jsonl", sessionText().text);
    write("tree/notes.txt", "not a session");
    const out = await inspect(["tree", "--json"]);
    expect(out.exitCode).toBe(0);
    const files = json(out.stdout).files as { file: string }[];
    expect(files.map((f) => f.file)).toEqual(["tree/a.jsonl", "tree/sub/m.jsonl", "tree/z.jsonl"]);
  });

  it("the human text names the file, the shape and each diagnostic", async () => {
    write("damaged.jsonl", damagedText());
    const out = await inspect(["damaged.jsonl"]);
    expect(out.exitCode).toBe(0);
    const lines = out.stdout.split("\n");
    expect(lines[0]).toBe("damaged.jsonl");
    expect(out.stdout).toContain("roots 3, leaves 3");
    expect(out.stdout).toMatch(/damaged\.jsonl:3: error E_JSON: not valid JSON/);
    expect(out.stdout).toMatch(/damaged\.jsonl:4: error E_MISSING_PARENT: /);
  });
});

describe("context-kit inspect: exit 2 for input that is not a session", () => {
  it.each([
    ["a text file", "notes.jsonl", "just some notes\nabout things\n", "E_BAD_HEADER"],
    ["an empty file", "empty.jsonl", "", "E_NO_HEADER"],
    ["a JSON file of another kind", "other.jsonl", '{"name":"pkg","version":"1.0.0"}\n', "E_NO_HEADER"],
    [
      "a session with a damaged header",
      "bad-header.jsonl",
      `{"type":"session","id":\n${sessionText().text.split("\n").slice(1).join("\n")}`,
      "E_BAD_HEADER",
    ],
  ])("%s: stderr names the file and a code, the report stays on stdout", async (_what, name, content, code) => {
    const file = write(name, content);
    const before = fingerprint(file);
    const out = await inspect([name, "--json"]);
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toMatch(
      new RegExp(`^context-kit inspect: ${code}: ${name.replace(".", "\\.")}: not a Pi session file`),
    );
    expect(only(out.stdout)).toMatchObject({ file: name, unusable: true, entries: 0 });
    expect((await inspect([name, "--strict"])).exitCode).toBe(2);
    expect(fingerprint(file)).toEqual(before);
  });

  it("one unusable file among readable ones still exits 2, and names only that file", async () => {
    write("a.jsonl", sessionText().text);
    write("notes.jsonl", "just some notes\n");
    const out = await inspect(["a.jsonl", "notes.jsonl"]);
    expect(out.exitCode).toBe(2);
    expect(out.stderr.trim().split("\n")).toHaveLength(1);
    expect(out.stderr).toContain("notes.jsonl");
  });

  it("a missing file: exit 2, it is listed as that file's E_READ and stderr names it; the JSON keeps its shape", async () => {
    const out = await inspect(["missing.jsonl"]);
    expect(out.exitCode).toBe(2);
    expect(out.stdout).toBe("missing.jsonl: E_READ: no such file or folder\n");
    expect(out.stderr).toBe("context-kit inspect: E_READ: missing.jsonl: no such file or folder\n");
    const asJson = await inspect(["missing.jsonl", "--json"]);
    expect(asJson.exitCode).toBe(2);
    expect(json(asJson.stdout)).toEqual({
      files: [{ file: "missing.jsonl", error: { code: "E_READ", message: "missing.jsonl: no such file or folder" } }],
      summary: { files: 1, outcomes: { "not readable": 1 } },
    });
  });

  it("no file named, or an unknown option: E_USAGE, exit 2", async () => {
    const none = await inspect([]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/^context-kit: E_USAGE: name at least one session file or folder/);
    const unknown = await inspect(["a.jsonl", "--bogus"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^context-kit: E_USAGE: .*--bogus/);
  });
});

describe("context-kit inspect never writes", () => {
  it("leaves every evidence sample and its folder untouched", async () => {
    const samples = [SAMPLE, BRANCHED].map((s) => join(ROOT, s));
    const before = samples.map(fingerprint);
    const out = await runCli(["inspect", "evidence-samples", "--json"], { cwd: ROOT });
    expect(out.exitCode).toBe(0);
    expect((json(out.stdout).files as unknown[]).length).toBeGreaterThanOrEqual(5);
    expect(samples.map(fingerprint)).toEqual(before);
  });
});
