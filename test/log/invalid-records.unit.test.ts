import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { INVALID_RECORD_TYPE, isInvalidRecordStub, nestsDeeper } from "../../src/log/invalid-record.js";
import { parseSessionText } from "../../src/log/read-session.js";
import { Random } from "../synth/random.js";

const SAMPLE = join(import.meta.dirname, "../../evidence-samples/stalled-school-session.jsonl");
const scratch = mkdtempSync(join(tmpdir(), "ck-invalid-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The stalled sample with the records at the given lines (1-based) rewritten. */
function mutated(name: string, edits: Record<number, (r: Record<string, unknown>) => void>): string {
  const lines = readFileSync(SAMPLE, "utf8").split("\n");
  for (const [line, edit] of Object.entries(edits)) {
    const record = JSON.parse(lines[Number(line) - 1] as string);
    edit(record);
    lines[Number(line) - 1] = JSON.stringify(record);
  }
  const file = join(scratch, name);
  writeFileSync(file, lines.join("\n"));
  return file;
}

const MESSAGE_NOT_OBJECT = (r: Record<string, unknown>) => {
  r.message = "hello";
};
const CONTENT_NOT_ARRAY = (r: Record<string, unknown>) => {
  (r.message as Record<string, unknown>).content = 5;
};

describe("records that fail their schema", () => {
  it("given a message that is not an object, then the record keeps its place in the tree but not its content", () => {
    const file = mutated("not-object.jsonl", { 5: MESSAGE_NOT_OBJECT });
    const log = parseSessionText(file, readFileSync(file));
    const stub = log.entries.find(isInvalidRecordStub) as unknown as Record<string, unknown>;
    const original = JSON.parse(readFileSync(file, "utf8").split("\n")[4] as string);
    expect(stub).toEqual({
      type: INVALID_RECORD_TYPE,
      id: original.id,
      parentId: original.parentId,
      recordType: "message",
      timestamp: original.timestamp,
    });
    expect(log.entries.some((e) => e.parentId === original.id)).toBe(true);
    expect(log.diagnostics).toContainEqual(
      expect.objectContaining({
        code: "E_SCHEMA",
        line: 5,
        entryId: original.id,
        message: expect.stringContaining("/message must be object"),
      }),
    );
  });

  for (const [command, exitCode, field] of [
    ["view", 2, (doc: Record<string, unknown>) => doc.invalidRecords],
    ["check", 1, (doc: { files: Record<string, unknown>[] }) => doc.files[0]?.readerErrors],
  ] as const) {
    it(`given messages whose content is not an array or which are not objects, then ${command} reports them and exits ${exitCode} (no crash)`, async () => {
      const file = mutated(`${command}.jsonl`, { 5: MESSAGE_NOT_OBJECT, 7: CONTENT_NOT_ARRAY, 9: CONTENT_NOT_ARRAY });
      const before = readFileSync(file);
      const text = await runCli([command, file], { cwd: scratch });
      expect(text.exitCode).toBe(exitCode);
      expect(text.stdout).toContain("line 5: E_SCHEMA: /message must be object");
      expect(text.stdout).toContain("line 7: E_SCHEMA: /message/content must be array");
      const json = await runCli([command, file, "--json"], { cwd: scratch });
      expect(json.exitCode).toBe(exitCode);
      const invalid = field(JSON.parse(json.stdout)) as { line: number; code: string }[];
      expect(invalid.filter((d) => d.code === "E_SCHEMA").map((d) => d.line)).toEqual([5, 7, 9]);
      expect(readFileSync(file).equals(before)).toBe(true);
    });
  }

  it("given a record nested thousands of levels deep, then it is reported and left out, and view still answers", async () => {
    const lines = readFileSync(SAMPLE, "utf8").split("\n");
    const record = JSON.parse(lines[5] as string);
    record.message.details = "__deep__";
    lines[5] = JSON.stringify(record).replace('"__deep__"', `${"[".repeat(20_000)}${"]".repeat(20_000)}`);
    const file = join(scratch, "deep.jsonl");
    writeFileSync(file, lines.join("\n"));
    const out = await runCli(["view", file, "--json"], { cwd: scratch });
    expect(out.exitCode).toBe(2);
    expect(JSON.parse(out.stdout).invalidRecords[0]).toMatchObject({
      line: 6,
      message: expect.stringContaining("nests deeper than 512"),
    });
  });
});

/** The level of the deepest array or object in a value (0 for the value itself; -1 for a primitive). */
function deepest(value: unknown): number {
  if (value === null || typeof value !== "object") return -1;
  let most = 0;
  for (const child of Object.values(value)) most = Math.max(most, deepest(child) + 1);
  return most;
}

function randomNesting(rnd: Random, depth: number): unknown {
  if (depth > 12 || rnd.chance(0.2)) return rnd.pick([null, 1, "x", true, [], {}]);
  const children = Array.from({ length: 1 + rnd.int(3) }, () => randomNesting(rnd, depth + 1));
  if (rnd.chance(0.5)) return children;
  return Object.fromEntries(children.map((child, i) => [rnd.pick(["a", "__proto__", "1", ""]) + i, child]));
}

describe("nestsDeeper", () => {
  it("says whether an array or object stands at `max` levels or below, for random values and every bound", () => {
    const rnd = new Random(9);
    for (let k = 0; k < 500; k++) {
      const value = JSON.parse(JSON.stringify(randomNesting(rnd, 0)) ?? "null");
      for (let max = 0; max <= 14; max++) expect(nestsDeeper(value, max)).toBe(deepest(value) >= max);
    }
  });

  it("answers for a value thousands of levels deep without going down them all", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nestsDeeper(deep)).toBe(true);
    expect(nestsDeeper({ a: [[{}]] }, 3)).toBe(true);
    expect(nestsDeeper({ a: [[1]] }, 3)).toBe(false);
  });
});
