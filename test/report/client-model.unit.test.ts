import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { foldTree } from "../../src/fold/session-fold.js";
import { summarizeState } from "../../src/fold/state-summary.js";
import type { AgentMessage } from "../../src/log/entry-types.js";
import { buildPageModel } from "../../src/report/page-model.js";
import { type LoadedSession, loadSession, loadSessionText } from "../../src/session.js";
import { EVIDENCE_SAMPLES } from "../../src/synth/evidence.js";
import { randomSession } from "../../src/synth/random-tree.js";
import { viewOfLeaf } from "../../src/view/leaf-view.js";
import { clientData } from "./client-eval.js";

const client = clientData();
const ST = { none: 0, sent: 1, omitted: 2, notInContext: 3, readded: 4 };
const SAMPLES = join(import.meta.dirname, "../../evidence-samples");

/** Entry ids of `viewOfLeaf`'s messages, found by identity among the host context and the branch's entries. */
function viewIds(session: LoadedSession, leafId: string) {
  const v = viewOfLeaf(session.tree, foldTree(session.tree), leafId);
  const source = new Map<AgentMessage, string>();
  v.host.messages.forEach((m, i) => {
    source.set(m, v.host.sources[i] as string);
  });
  for (const e of session.tree.pathTo(leafId)) if (e.type === "message") source.set(e.message, e.id);
  // The page lists entries: the request-local guidance and reminder the view adds are not entries of the session.
  const added = new Set<AgentMessage | null>([v.added.guidance, v.added.reminder]);
  const shift = v.added.guidance && v.anchorIndex >= 0 ? 1 : 0;
  const ids = v.messages.filter((m) => !added.has(m)).map((m) => source.get(m));
  return { ids, omitted: v.omitted, anchorIndex: v.anchorIndex - shift };
}

/** The client's state at every entry and projection of every leaf equal the server's fold and view. */
function expectClientEqualsServer(session: LoadedSession): { anchored: number } {
  const model = JSON.parse(JSON.stringify(buildPageModel("x.jsonl", session)));
  const d = client.decodeModel(model);
  const states = client.makeStates(d);
  const projectionOf = client.makeProjections(d);
  const fold = foldTree(session.tree);
  d.ids.forEach((id, i) => {
    expect(states.summaryAt(i), `state at ${id}`).toEqual(summarizeState(fold.stateAt(id)));
  });
  let anchored = 0;
  for (const leaf of d.leaves) {
    const leafId = d.ids[leaf] as string;
    const p = projectionOf(leaf);
    if (p === null) throw new Error(`no projection for ${leafId}`);
    const expected = viewIds(session, leafId);
    expect(
      p.view.map((i) => d.ids[i]),
      `view of ${leafId}`,
    ).toEqual(expected.ids);
    expect(p.omitted).toEqual(expected.omitted);
    expect(p.anchorIndex).toBe(expected.anchorIndex);
    const omittedRows = [...p.status].filter((s) => s === ST.omitted).length;
    expect(omittedRows).toBe(p.omitted.assistant + p.omitted.toolResult + p.omitted.other);
    const readded = [...p.status].filter((s) => s === ST.readded).length;
    expect(readded).toBe(p.view.filter((i) => !p.host.includes(i)).length);
    if (p.anchorIndex >= 0) anchored++;
  }
  return { anchored };
}

describe("the client script's decoding of the page model", () => {
  it("gives the fold's state at every entry and viewOfLeaf's messages for every leaf, on random trees", () => {
    let anchored = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const text = randomSession(seed, 160).toJsonl();
      anchored += expectClientEqualsServer(loadSessionText(`random-${seed}`, text)).anchored;
    }
    expect(anchored).toBeGreaterThan(20);
  });

  it.each(Object.keys(EVIDENCE_SAMPLES))("equals replay and view on the evidence sample %s", (name) => {
    const session = loadSession(join(SAMPLES, name));
    expectClientEqualsServer(session);
    const model = buildPageModel(name, session);
    const d = client.decodeModel(model);
    const states = client.makeStates(d);
    const replay = JSON.parse(readFileSync(join(SAMPLES, name.replace(".jsonl", ".replay.json")), "utf8"));
    for (const branch of replay.files[0].branches)
      expect(states.summaryAt(d.ids.indexOf(branch.leafId))).toEqual(branch.state);
    const view = JSON.parse(readFileSync(join(SAMPLES, name.replace(".jsonl", ".view.json")), "utf8"));
    const active = client.makeProjections(d)(d.activeLeaf);
    expect(active?.view).toHaveLength(view.messages.length);
    expect(active?.omitted).toEqual(view.omitted);
    expect(active?.anchor).toBe(view.anchorId === null ? -1 : d.ids.indexOf(view.anchorId));
  });

  it("decodes file lines, depths and paths", () => {
    const session = loadSession(join(SAMPLES, "branched-school-session.jsonl"));
    const d = client.decodeModel(buildPageModel("b", session));
    d.ids.forEach((id, i) => {
      expect(d.lines[i]).toBe(session.tree.position(id)?.line);
      expect(d.depth[i]).toBe(session.tree.depth(id));
    });
    const leaf = d.ids.indexOf("00007065");
    expect(client.pathTo(d, leaf).map((i) => d.ids[i])).toEqual(session.tree.pathTo("00007065").map((e) => e.id));
  });
});

describe("the tree of branches", () => {
  it("has one branch per leaf, the active one on top, each fork on its parent branch", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const session = loadSessionText(`r${seed}`, randomSession(seed, 200).toJsonl());
      const d = client.decodeModel(buildPageModel("r", session));
      const { byLeaf, tops } = client.makeBranches(d);
      expect([...byLeaf.keys()].sort((a, b) => a - b)).toEqual([...d.leaves].sort((a, b) => a - b));
      expect([...byLeaf.values()].reduce((n, b) => n + b.own, 0)).toBe(d.n);
      expect(tops.some((b) => b.leaf === d.activeLeaf)).toBe(true);
      expect(tops).toHaveLength(session.tree.roots.length);
      for (const b of byLeaf.values()) {
        expect(client.pathTo(d, b.leaf)).toContain(b.start);
        if (b.fork < 0) continue;
        expect(d.parents[b.start]).toBe(b.fork);
        expect(client.pathTo(d, b.parent)).toContain(b.fork);
        expect(client.pathTo(d, b.parent)).not.toContain(b.start);
      }
    }
  });
});
