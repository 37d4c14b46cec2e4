import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeJson } from "../../src/cli/json-out.js";
import { runCli } from "../../src/cli/run.js";
import { SHARED_SESSIONS, sharedSessionFiles } from "../helpers/shared-sessions.js";

const ROOT = join(import.meta.dirname, "../..");

/** What `writeJson` sends, in the pieces it sends them. */
function streamed(value: unknown): { text: string; pieces: number } {
  const pieces: string[] = [];
  writeJson(value, (chunk) => pieces.push(chunk));
  return { text: pieces.join(""), pieces: pieces.length };
}

/** `--json` as printed when collected (one JSON.stringify) and as streamed to a writer; they must be the same bytes. */
async function bothWays(args: string[]) {
  const whole = await runCli(args, { cwd: ROOT });
  const pieces: string[] = [];
  const live = await runCli(args, { cwd: ROOT, stdout: (chunk) => pieces.push(chunk) });
  return { whole, live, text: pieces.join("") + live.stdout };
}

describe("writeJson: JSON.stringify(value, null, 2) in pieces", () => {
  it.each([
    [
      "a view-like report",
      { file: "x", messages: [{ role: "user", content: "a\nb" }, { n: [1, [2, {}]] }], omitted: {} },
    ],
    ["members JSON.stringify leaves out", { a: undefined, f: () => 1, b: [undefined, () => 1, Symbol("s")], c: null }],
    ["empty and nested arrays", { empty: [], nested: [[], [[1]], {}], obj: { deep: [{ x: "\u2028" }] } }],
    ["a toJSON member", { when: new Date(0), list: [new Date(1)] }],
    ["no members", {}],
    ["an array at the top", [{ a: 1 }, 2]],
    ["a string", "line\nbreak"],
  ])("%s", (_, value) => {
    expect(streamed(value).text).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });

  it("writes a long array in several pieces, not as one string", () => {
    const files = Array.from({ length: 3000 }, (_, i) => ({ i, text: "x".repeat(1000) }));
    const out = streamed({ files, summary: { n: files.length } });
    expect(out.pieces).toBeGreaterThan(1);
    expect(out.text).toBe(`${JSON.stringify({ files, summary: { n: files.length } }, null, 2)}\n`);
  });
});

describe("--json streamed to stdout is the collected document, byte for byte", () => {
  it.each(["evidence-samples/stalled-school-session.jsonl", "evidence-samples/branched-school-session.jsonl"])(
    "%s: every command",
    async (file) => {
      for (const command of ["view", "inspect", "replay", "check", "detect"]) {
        const { whole, live, text } = await bothWays([command, file, "--json"]);
        expect(live.exitCode).toBe(whole.exitCode);
        expect(text).toBe(whole.stdout);
        expect(JSON.parse(text)).toEqual(JSON.parse(whole.stdout));
      }
    },
  );

  const real = sharedSessionFiles("json-out");
  it.skipIf(real.length === 0)("view of each real session, and inspect of their folder", async () => {
    for (const name of real) {
      const { whole, text } = await bothWays(["view", join(SHARED_SESSIONS, name), "--json"]);
      expect(text).toBe(whole.stdout);
      expect((JSON.parse(text) as { messages: unknown[] }).messages.length).toBeGreaterThan(0);
    }
    const folder = await bothWays(["inspect", SHARED_SESSIONS, "--json"]);
    expect(folder.text).toBe(folder.whole.stdout);
    expect((JSON.parse(folder.text) as { files: unknown[] }).files).toHaveLength(real.length);
  });
});
