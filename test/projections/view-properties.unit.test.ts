import fc from "fast-check";
import stringify from "fast-json-stable-stringify";
import { describe, expect, it } from "vitest";
import { keepsBeforeMarker } from "../../projections/context-in-force.js";
import { checkView } from "../../projections/invariants.js";
import { dropOrphanResults, toolPairingViolations } from "../../projections/tool-pairing.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { recoveryMarker } from "../../src/kit/host-messages.js";
import type { AgentMessage } from "../../src/log/entry-types.js";
import { loadSessionText } from "../../src/session.js";
import { randomSession } from "../../src/synth/random-tree.js";
import type { SessionBuilder } from "../../src/synth/session-builder.js";
import { SessionTree } from "../../src/tree/session-tree.js";
import { anchorIsAuthentic, viewOfLeaf } from "../../src/view/leaf-view.js";
import { hostContext, hostRead } from "../helpers/host.js";

const RUNS = 300;

/** A random tree (branches, compactions, summaries, kit and foreign entries) with extra markers under some leaves. */
const trees = fc
  .record({
    seed: fc.integer({ min: 1, max: 2 ** 30 }),
    size: fc.integer({ min: 8, max: 80 }),
    markers: fc.array(fc.record({ leaf: fc.nat(), after: fc.integer({ min: 0, max: 3 }) }), { maxLength: 3 }),
  })
  .map(({ seed, size, markers }) => {
    const b = randomSession(seed, size);
    for (const { leaf, after } of markers) {
      const leaves = new SessionTree(b.entries).leaves();
      b.at(leaves[leaf % leaves.length] as string);
      mark(b);
      for (let i = 0; i < after; i++) {
        if (i % 2 === 0) b.toolRound("read", { path: `f${i}` }, "text");
        else b.user(`after marker ${i}`);
      }
    }
    return { seed, text: b.toJsonl() };
  });

function mark(b: SessionBuilder): string {
  const m = recoveryMarker({ requestId: null, promiseEntryIds: [], reason: "property" });
  return b.customMessage(m.customType, m.content, m.details);
}

const pairKeys = (messages: readonly AgentMessage[]) =>
  new Set(toolPairingViolations(messages).map((v) => `${v.code}:${v.toolCallId}`));

describe("recovery view properties on random trees", () => {
  it(`for every leaf (${RUNS} trees): all branch users kept in order, no new pairing violation, checkView clean; no anchor → the host's context`, () => {
    const seen = { anchored: 0, compactedMarker: 0, plain: 0 };
    fc.assert(
      fc.property(trees, ({ text }) => {
        const { tree, diagnostics } = loadSessionText("random.jsonl", text);
        expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
        const { entries } = hostRead(text);
        const fold = foldTree(tree);
        for (const leaf of tree.leaves()) {
          const v = viewOfLeaf(tree, fold, leaf);
          expect(
            checkView({
              host: v.host.messages,
              view: v.messages,
              anchorIndex: v.anchorIndex,
              branchUsers: v.branchUsers,
              anchorAuthentic: anchorIsAuthentic(tree, v.anchorId),
              added: v.added,
            }),
          ).toEqual([]);
          const hostPairs = pairKeys(v.host.messages);
          for (const key of pairKeys(v.messages)) expect(hostPairs).toContain(key);

          if (v.anchorId === null) {
            seen.plain++;
            expect(v.anchorIndex).toBe(-1);
            const sent = v.messages.filter((m) => m !== v.added.guidance && m !== v.added.reminder);
            if (!v.added.guidance && !v.added.reminder) expect(v.messages).toBe(v.host.messages);
            expect(sent).toEqual(hostContext(entries, leaf).messages);
            continue;
          }
          seen.anchored++;
          const users = v.messages.filter((m) => m.role === "user");
          expect(users).toHaveLength(v.branchUsers.length);
          for (const [i, m] of users.entries()) expect(m).toBe(v.branchUsers[i]);
          for (const m of v.messages.slice(0, v.anchorIndex)) {
            expect(m.role === "user" || (m.role === "custom" && keepsBeforeMarker(m.customType))).toBe(true);
          }
          const hostAnchor = v.host.sources.indexOf(v.anchorId);
          if (hostAnchor < 0) seen.compactedMarker++;
          const tail = dropOrphanResults(v.host.messages.slice(Math.max(hostAnchor, 0))).messages;
          const fromMarker = v.messages.slice(v.anchorIndex).filter((m) => m !== v.added.reminder);
          expect(fromMarker).toEqual(tail);
        }
      }),
      { numRuns: RUNS },
    );
    expect(seen.anchored).toBeGreaterThan(RUNS);
    expect(seen.plain).toBeGreaterThan(RUNS / 2);
    expect(seen.compactedMarker).toBeGreaterThan(0);
  });

  it("is pure and deterministic: deep-frozen entries, two folds, the same views", () => {
    fc.assert(
      fc.property(trees, ({ text }) => {
        const { tree } = loadSessionText("random.jsonl", text);
        const entries = [...tree.byId.values()];
        for (const entry of entries) deepFreeze(entry);
        const snapshot = stringify(entries);
        const again = new SessionTree(entries);
        const foldA = foldTree(tree);
        const foldB = foldTree(again);
        for (const leaf of tree.leaves()) {
          const a = viewOfLeaf(tree, foldA, leaf);
          const b = viewOfLeaf(again, foldB, leaf);
          expect(stringify(b.messages)).toBe(stringify(a.messages));
          expect(b.omitted).toEqual(a.omitted);
        }
        expect(stringify(entries)).toBe(snapshot);
      }),
      { numRuns: 60 },
    );
  });
});

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
