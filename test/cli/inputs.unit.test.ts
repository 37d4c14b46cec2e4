import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expandInputs, inFolder } from "../../src/cli/inputs.js";

const root = mkdtempSync(join(tmpdir(), "ck-inputs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const names = [
  "b.jsonl",
  "A.jsonl",
  "a.jsonl",
  "_x.jsonl",
  "10.jsonl",
  "9.jsonl",
  "é.jsonl",
  "Z-1.jsonl",
  "..dots.jsonl",
];
const sessions = join(root, "work", "sessions");
for (const sub of ["", "Sub", "sub/deeper"]) {
  mkdirSync(join(sessions, sub), { recursive: true });
  for (const name of names) writeFileSync(join(sessions, sub, name), "{}\n");
  writeFileSync(join(sessions, sub, "notes.txt"), "not a session\n");
}

/** The plain definition: names sorted by `localeCompare` at each level, each shown as `join(given, below)`. */
function reference(given: string, cwd: string): { path: string; shown: string }[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((e) =>
        e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".jsonl") ? [join(dir, e.name)] : [],
      );
  const folder = resolve(cwd, given);
  return walk(folder).map((path) => ({ path, shown: join(given, relative(folder, path)) }));
}

describe("expandInputs", () => {
  const cwd = join(root, "work");
  const givens = [
    "sessions",
    "sessions/",
    "./sessions",
    "./sessions/",
    "sessions/../sessions",
    sessions,
    `${sessions}/`,
  ];
  for (const given of givens)
    it(`lists a folder given as ${JSON.stringify(given.replace(root, "ROOT"))} in localeCompare order, shown as joined`, () => {
      expect(expandInputs([given], cwd)).toEqual(reference(given, cwd));
    });

  it("shows files below the working folder and below a parent by their joined path", () => {
    expect(expandInputs(["."], sessions)).toEqual(reference(".", sessions));
    expect(expandInputs(["./"], sessions)).toEqual(reference("./", sessions));
    expect(expandInputs(["../Sub"], join(sessions, "sub"))).toEqual(reference("../Sub", join(sessions, "sub")));
    expect(expandInputs([".."], join(sessions, "Sub"))).toEqual(reference("..", join(sessions, "Sub")));
  });

  it("lists the same files, shown the same, when not asked to put them in order", () => {
    const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : 1);
    for (const given of ["sessions", "./sessions/", sessions]) {
      const unordered = expandInputs([given], cwd, { ordered: false });
      expect([...unordered].sort(byPath)).toEqual([...reference(given, cwd)].sort(byPath));
    }
  });

  it("joins a normalized folder and a plain name as path.join does", () => {
    for (const [folder, below] of [
      ["/", "a.jsonl"],
      ["/x", "a/b.jsonl"],
      ["x/", "..a.jsonl"],
      ["../x", "a"],
    ] as const)
      expect(inFolder(folder, below)).toBe(join(folder, below));
  });
});
