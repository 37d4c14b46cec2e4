import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toolLoopReport } from "../../reducers/tool-loop.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { describeToolLoop } from "../../src/kit/host-messages.js";
import { loadSession } from "../../src/session.js";

const SESSIONS = process.env.PI_SESSIONS_DIR ?? join(import.meta.dirname, "../../../shared/pi-sessions");

/**
 * Every tool-loop detection in the real sessions, printed for hand judgement (the README lists them): on every leaf,
 * and at every entry as if the session had stopped there (each loop once, at the entry where it first shows).
 */
describe("tool loops on real sessions", () => {
  it.skipIf(!existsSync(SESSIONS))("lists every detection on every leaf and at every entry", () => {
    const atLeaves: string[] = [];
    const atEntries: string[] = [];
    let leaves = 0;
    let entries = 0;
    for (const name of readdirSync(SESSIONS)
      .filter((f) => f.endsWith(".jsonl"))
      .sort()) {
      const { tree } = loadSession(join(SESSIONS, name));
      const fold = foldTree(tree);
      for (const leaf of tree.leaves()) {
        leaves++;
        const loop = toolLoopReport(fold.stateAt(leaf).toolLoop);
        if (loop) atLeaves.push(`${name} leaf ${leaf}: ${describeToolLoop(loop)}`);
      }
      const seen = new Set<string>();
      for (const id of tree.byId.keys()) {
        entries++;
        const loop = toolLoopReport(fold.stateAt(id).toolLoop);
        const key = `${loop?.kind}:${loop?.entryIds[0]}`;
        if (!loop || seen.has(key)) continue;
        seen.add(key);
        atEntries.push(`${name} at ${id}: ${describeToolLoop(loop)}`);
      }
    }
    console.log(
      [
        `${leaves} leaves: ${atLeaves.length} detections`,
        ...atLeaves,
        `${entries} entries: ${atEntries.length} distinct loops`,
        ...atEntries,
      ].join("\n"),
    );
    expect(leaves).toBeGreaterThan(0);
  });
});
