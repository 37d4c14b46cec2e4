import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replayFile, replaySplit } from "../../src/cli/commands/replay.js";
import { setSourceHooks } from "../../src/files/file-pool.js";
import { writeLargeSession } from "../synth/large-session.js";
import { Random } from "../synth/random.js";
import { randomSession } from "../synth/random-tree.js";

const scratch = mkdtempSync(join(tmpdir(), "ck-replay-split-"));
beforeAll(() => setSourceHooks(new URL("../bench/ts-hooks.mjs", import.meta.url).href));
afterAll(() => {
  setSourceHooks(null);
  rmSync(scratch, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  return file;
}

describe("replay on two threads (a check worker) equals the replay on one", () => {
  it.each(Array.from({ length: 4 }, (_, i) => 3100 + i))("random tree, seed %i: every branch", async (seed) => {
    const file = write(`random-${seed}.jsonl`, randomSession(seed, seed % 3 === 0 ? 600 : 150).toJsonl());
    const split = await replaySplit(file, "f.jsonl");
    expect(split).not.toBeNull();
    expect(split).toEqual(replayFile(file, "f.jsonl"));
  });

  it("a generated tree, one leaf asked by a prefix of its id", async () => {
    const info = writeLargeSession(join(scratch, "tree.jsonl"), { entries: 2_000, leaves: 7, seed: 5 });
    const leaf = (info.leafIds[2] as string).slice(0, 6);
    const split = await replaySplit(info.file, "t.jsonl", leaf);
    expect(split).not.toBeNull();
    expect(split).toEqual(replayFile(info.file, "t.jsonl", leaf));
    expect(await replaySplit(info.file, "t.jsonl")).toEqual(replayFile(info.file, "t.jsonl"));
  });

  it("declines a file whose checks change a record, an id used twice or a parent after its child", async () => {
    const lines = randomSession(7, 60).toJsonl().trimEnd().split("\n");
    const broken = JSON.parse(lines[4] as string) as Record<string, unknown>;
    broken.timestamp = 12;
    const schema = write(
      "schema.jsonl",
      `${[...lines.slice(0, 4), JSON.stringify(broken), ...lines.slice(5)].join("\n")}\n`,
    );
    const duplicate = write("duplicate.jsonl", `${[...lines, lines[5]].join("\n")}\n`);
    const swapped = [...lines];
    [swapped[3], swapped[4]] = [swapped[4] as string, swapped[3] as string];
    const forward = write("forward.jsonl", `${swapped.join("\n")}\n`);
    for (const file of [schema, duplicate, forward]) expect(await replaySplit(file, "x.jsonl")).toBeNull();
  });

  it("takes a record of a type it does not know as the checked read does (kept as written, a warning)", async () => {
    const lines = randomSession(11, 80).toJsonl().trimEnd().split("\n");
    const last = JSON.parse(lines[lines.length - 1] as string) as { id: string };
    const unknown = { type: "future_kind", id: "f0f0f0f0", parentId: last.id, timestamp: "2026-01-01T00:00:00.000Z" };
    const file = write("unknown-type.jsonl", `${[...lines, JSON.stringify(unknown)].join("\n")}\n`);
    const split = await replaySplit(file, "u.jsonl");
    expect(split).not.toBeNull();
    expect(split).toEqual(replayFile(file, "u.jsonl"));
  });

  it.each(Array.from({ length: 12 }, (_, i) => 3200 + i))("damaged random tree, seed %i", async (seed) => {
    // Lines the host drops (bad JSON, a record without an id), a truncated tail, a second header, an orphan: the split
    // replay either equals the one-thread replay or declines (a damaged file is replayed on one thread, which counts
    // its reader errors).
    const rnd = new Random(seed);
    const lines = randomSession(seed, 200).toJsonl().trimEnd().split("\n");
    for (let k = 0; k < 4; k++) {
      const at = 1 + rnd.int(lines.length - 1);
      const roll = rnd.int(5);
      if (roll === 0) lines[at] = (lines[at] as string).slice(0, 20);
      else if (roll === 1) lines.splice(at, 0, '{"type":"custom","customType":"x"}');
      else if (roll === 2) lines.splice(at, 0, lines[0] as string);
      else if (roll === 3) lines.splice(at, 1);
      else lines[at] = (lines[at] as string).replace(/"parentId":"[^"]*"/, '"parentId":"gone"');
    }
    const file = write(`damaged-${seed}.jsonl`, `${lines.join("\n")}${seed % 2 === 0 ? "\n" : ""}`);
    const split = await replaySplit(file, "d.jsonl");
    const declines = lines.some((line) => line.startsWith('{"type":"custom","customType":"x"}'));
    if (declines) expect(split).toBeNull();
    else if (split !== null) expect(split).toEqual(replayFile(file, "d.jsonl"));
  });

  it("a generated linear session and a wide tree: every branch", async () => {
    const linear = writeLargeSession(join(scratch, "linear.jsonl"), { entries: 3_000, seed: 8 });
    const wide = writeLargeSession(join(scratch, "wide.jsonl"), { entries: 3_000, leaves: 40, seed: 9 });
    for (const info of [linear, wide]) {
      const split = await replaySplit(info.file, "g.jsonl");
      expect(split).not.toBeNull();
      expect(split).toEqual(replayFile(info.file, "g.jsonl"));
    }
  });

  it("reports a file that is not a session as the one-thread replay does", async () => {
    const file = write("not-a-session.jsonl", '{"hello":1}\n');
    expect(await replaySplit(file, "n.jsonl")).toEqual(replayFile(file, "n.jsonl"));
  });
});
