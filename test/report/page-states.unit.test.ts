import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { knownStatesFor, pageStatesOf, takenAsWritten } from "../../src/cli/page-states-worker.js";
import { buildPageModel, buildPageModelAwaiting } from "../../src/report/page-model.js";
import { loadSession } from "../../src/session.js";
import { writeLargeSession } from "../synth/large-session.js";
import { Random } from "../synth/random.js";
import { randomSession } from "../synth/random-tree.js";

const scratch = mkdtempSync(join(tmpdir(), "ck-page-states-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const SAMPLES = join(import.meta.dirname, "../../evidence-samples");

function write(name: string, text: string): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  return file;
}

/**
 * The page model built with the states a worker folds while reading the file equals the one built with the tree's
 * fold, as JSON (what the page embeds); false when the worker's states cannot be used for this file.
 */
async function expectSamePage(file: string): Promise<boolean> {
  const plain = JSON.stringify(buildPageModel("p.jsonl", loadSession(file)));
  const session = loadSession(file);
  const known = knownStatesFor(session, pageStatesOf(file));
  if (known === undefined) return false;
  expect(JSON.stringify(buildPageModel("p.jsonl", session, {}, known))).toBe(plain);
  const awaited = await buildPageModelAwaiting("p.jsonl", loadSession(file), Promise.resolve(known));
  expect(JSON.stringify(awaited)).toBe(plain);
  return true;
}

describe("the report's states from a reading fold equal those of the tree's fold", () => {
  it.each(Array.from({ length: 24 }, (_, i) => 5100 + i))("random session, seed %i", async (seed) => {
    const file = write(`random-${seed}.jsonl`, randomSession(seed, seed % 4 === 0 ? 600 : 150).toJsonl());
    expect(await expectSamePage(file)).toBe(true);
  });

  it.each(Array.from({ length: 16 }, (_, i) => 5200 + i))("damaged random session, seed %i", async (seed) => {
    const rnd = new Random(seed);
    const lines = randomSession(seed, 150).toJsonl().trimEnd().split("\n");
    for (let k = 0; k < 3; k++) {
      const at = 1 + rnd.int(lines.length - 1);
      const roll = rnd.int(6);
      if (roll === 0) lines[at] = (lines[at] as string).slice(0, 20);
      else if (roll === 1) lines.splice(at, 0, lines[0] as string);
      else if (roll === 2) lines.splice(at, 1);
      else if (roll === 3) lines[at] = (lines[at] as string).replace(/"parentId":"[^"]*"/, '"parentId":"gone"');
      else if (roll === 4) lines.push(lines[at] as string);
      else lines.splice(at, 0, '{"type":"custom","customType":"x"}');
    }
    const file = write(`damaged-${seed}.jsonl`, `${lines.join("\n")}${seed % 2 === 0 ? "\n" : ""}`);
    const session = loadSession(file);
    const used = await expectSamePage(file);
    // Used whenever the read took every entry as written and the fold was exact (no id used twice).
    const ids = session.log.entries.map((e) => e.id);
    if (takenAsWritten(session) && new Set(ids).size === ids.length && used === false) {
      expect(pageStatesOf(file)).toBeNull();
    }
  });

  it("a generated tree of many leaves", async () => {
    const info = writeLargeSession(join(scratch, "tree.jsonl"), { entries: 3_000, leaves: 30, seed: 6 });
    expect(await expectSamePage(info.file)).toBe(true);
  });

  it("the evidence samples (kit records and recorded requests)", async () => {
    const files = readdirSync(SAMPLES).filter((n) => n.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThan(0);
    let used = 0;
    for (const name of files) if (await expectSamePage(join(SAMPLES, name))) used++;
    expect(used).toBeGreaterThan(0);
  });

  it("declines a file whose checks change a record", () => {
    const lines = randomSession(9, 60).toJsonl().trimEnd().split("\n");
    const broken = JSON.parse(lines[4] as string) as Record<string, unknown>;
    broken.timestamp = 12;
    const file = write(
      "schema.jsonl",
      `${[...lines.slice(0, 4), JSON.stringify(broken), ...lines.slice(5)].join("\n")}\n`,
    );
    expect(knownStatesFor(loadSession(file), pageStatesOf(file))).toBeUndefined();
  });
});
