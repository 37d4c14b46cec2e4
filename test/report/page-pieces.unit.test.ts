import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compactJson } from "../../src/report/entry-kinds.js";
import { jsonPieces } from "../../src/report/json-pieces.js";
import { buildPageModel, callOwnersByWalk, callOwnersNearby, pageModelParts } from "../../src/report/page-model.js";
import { writeSessionPageFile } from "../../src/report/page-writer.js";
import { renderSessionPage } from "../../src/report/render-session-page.js";
import { loadSessionText } from "../../src/session.js";
import { Random } from "../synth/random.js";
import { randomSession } from "../synth/random-tree.js";
import { SessionBuilder } from "../synth/session-builder.js";

const CHARS = ["a", " ", "\n", '"', "\\", "é", "中", "🙂", "\ud83d", "\udc00", "<", "\u2028", "\u0001"];

function randomString(rnd: Random, max: number): string {
  let s = "";
  const n = rnd.int(max);
  for (let i = 0; i < n; i++) s += rnd.pick(CHARS);
  return s;
}

/** Plain JSON-like data, with the members JSON.stringify leaves out or turns into null. */
function randomValue(rnd: Random, depth: number): unknown {
  const roll = rnd.int(depth > 3 ? 5 : 9);
  if (roll === 0) return rnd.int(1000) - 500;
  if (roll === 1) return randomString(rnd, rnd.chance(0.2) ? 600 : 20);
  if (roll === 2) return rnd.chance(0.5) ? null : rnd.chance(0.5);
  if (roll === 3) return rnd.chance(0.5) ? undefined : 1.5e300;
  if (roll === 4) return rnd.next();
  if (roll < 7) {
    const long = depth < 2 && rnd.chance(0.1);
    return Array.from({ length: rnd.int(long ? 700 : 6) }, () => (long ? rnd.int(9) : randomValue(rnd, depth + 1)));
  }
  const out: Record<string, unknown> = {};
  for (let i = rnd.int(6); i > 0; i--) out[randomString(rnd, 5)] = randomValue(rnd, depth + 1);
  if (rnd.chance(0.05)) Object.defineProperty(out, "__proto__", { value: randomValue(rnd, 4), enumerable: true });
  if (rnd.chance(0.05)) out.when = new Date(rnd.int(1e12));
  return out;
}

describe("JSON in pieces", () => {
  it("gives JSON.stringify's text, piece by piece, for random values at every depth", () => {
    const rnd = new Random(17);
    for (let k = 0; k < 400; k++) {
      const value = randomValue(rnd, 0);
      for (const depth of [0, 1, 3]) expect([...jsonPieces(value, depth)].join("")).toBe(JSON.stringify(value) ?? "");
    }
  });

  it("cuts long strings before a preview's JSON and still gives its first characters exactly", () => {
    const rnd = new Random(5);
    for (let k = 0; k < 600; k++) {
      const value = randomValue(rnd, 0);
      const max = rnd.pick([0, 1, 7, 50, 200]);
      expect(compactJson(value, max)).toBe(JSON.stringify(value)?.slice(0, max) ?? "");
    }
  });
});

describe("the page written in pieces", () => {
  it("is renderSessionPage's text, whether the model goes in as JSON or gzipped", async () => {
    const dir = mkdtempSync(join(tmpdir(), "page-pieces-"));
    try {
      for (const seed of [1, 2, 3]) {
        const session = loadSessionText("s", randomSession(seed, 300).toJsonl());
        const model = buildPageModel(`s${seed}.jsonl`, session);
        for (const compressAbove of [10, 1000, 2_000_000]) {
          for (const indexHref of [undefined, "../index.html"]) {
            const options = indexHref === undefined ? { compressAbove } : { compressAbove, indexHref };
            const expected = renderSessionPage(model, options);
            // The whole model, and the model in parts (its later members made while the first are written).
            for (const given of [model, pageModelParts(`s${seed}.jsonl`, session)]) {
              const page = join(dir, "p.html");
              const bytes = await writeSessionPageFile(given, page, options);
              expect(readFileSync(page, "utf8")).toBe(expected);
              expect(bytes).toBe(Buffer.byteLength(expected));
            }
          }
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the owners of tool calls", () => {
  it("looked up from each result are those of the walk of the tree, on random trees", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const session = loadSessionText("s", randomSession(seed, 120).toJsonl());
      const model = buildPageModel("s", session);
      const indexOf = new Map(model.entries.ids.map((id, i) => [id, i]));
      const byWalk = callOwnersByWalk(session, indexOf, model.entries.parents);
      expect(callOwnersNearby(session, model.entries.parents)).toEqual(byWalk);
      expect(model.callOwners).toEqual(byWalk);
    }
  });

  it("fall back to the walk when a call is far above its result", () => {
    const b = new SessionBuilder();
    b.user("go");
    b.assistant("", [{ name: "read", args: { path: "a" }, id: "far" }]);
    for (let i = 0; i < 80; i++) b.user(`more ${i}`);
    b.toolResult("far", "read", "text");
    const session = loadSessionText("s", b.toJsonl());
    const model = buildPageModel("s", session);
    const indexOf = new Map(model.entries.ids.map((id, i) => [id, i]));
    expect(callOwnersNearby(session, model.entries.parents)).toBeNull();
    expect(model.callOwners).toEqual([[indexOf.size - 1, 1]]);
  });
});
