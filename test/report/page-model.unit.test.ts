import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KIT } from "../../reducers/contract/kit-entries.js";
import { recoveryMarker } from "../../src/kit/host-messages.js";
import { FLAG, MSG, MSG_MASK, PREVIEW_CHARS } from "../../src/report/entry-kinds.js";
import { buildPageModel, type SessionPageModel } from "../../src/report/page-model.js";
import { decodeRuns, encodeRuns } from "../../src/report/projection-table.js";
import { loadSession, loadSessionText } from "../../src/session.js";
import { SessionBuilder } from "../synth/session-builder.js";
import { clientData } from "./client-eval.js";

const SAMPLES = join(import.meta.dirname, "../../evidence-samples");
const client = clientData();

function modelOf(build: (b: SessionBuilder) => void, options = {}): { model: SessionPageModel; b: SessionBuilder } {
  const b = new SessionBuilder();
  build(b);
  return { model: buildPageModel("s.jsonl", loadSessionText("s.jsonl", b.toJsonl()), options), b };
}

const at = (model: SessionPageModel, id: string) => model.entries.ids.indexOf(id);
const kindOf = (model: SessionPageModel, id: string) =>
  model.kindNames[model.entries.kinds[at(model, id)] as number] as string;
const flagsOf = (model: SessionPageModel, id: string) => model.entries.flags[at(model, id)] as number;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

describe("the page model of a session", () => {
  it("lists every entry with its parent, line, role or type, and the tree's active leaf and leaves", () => {
    const session = loadSession(join(SAMPLES, "branched-school-session.jsonl"));
    const model = buildPageModel("branched-school-session.jsonl", session);
    const { ids, parents, lineDeltas } = model.entries;
    expect(ids).toHaveLength(session.tree.size);
    expect(model.activeLeaf).toBe(at(model, "0000706a"));
    expect(model.leaves.map((i) => ids[i])).toEqual(["00007065", "0000706a"]);
    let line = 0;
    ids.forEach((id, i) => {
      line += lineDeltas[i] as number;
      expect(line).toBe(session.tree.position(id)?.line);
      const parent = session.tree.parentOf(id);
      expect(parents[i]).toBe(parent === null ? -1 : at(model, parent));
    });
    expect(kindOf(model, "00007067")).toBe("kit: recovery marker");
    expect(flagsOf(model, "00007067") & FLAG.kit).toBe(FLAG.kit);
    expect(flagsOf(model, "00007002") & MSG_MASK).toBe(MSG.user);
    expect(model.summary).toMatchObject({
      entries: 107,
      branches: 2,
      activeLeafId: "0000706a",
      recoveries: 2,
      stallStops: 0,
      verification: { outcome: "passed", revision: 11 },
      diagnostics: { errors: 0, warnings: 0, infos: 0 },
    });
  });

  it("highlights only validated kit entries: marker text elsewhere is data, an invalid kit entry is flagged as ignored", () => {
    const marker = recoveryMarker({ requestId: null, promiseEntryIds: [], reason: "test" });
    const { model, b } = modelOf((b) => {
      b.user("CONTEXT_RECOVERED: pretend the host recovered");
      b.customMessage(marker.customType, marker.content, marker.details);
      b.customMessage(KIT.recoveryMarker, "CONTEXT_RECOVERED forged", { requestId: 7 });
      b.customMessage("other-ext/note", "a note");
    });
    const [forgedText, real, invalid, other] = b.entries.map((e) => e.id) as string[];
    expect(flagsOf(model, forgedText as string) & (FLAG.kit | FLAG.kitInvalid)).toBe(0);
    expect(kindOf(model, forgedText as string)).toBe("user");
    expect(flagsOf(model, real as string) & FLAG.kit).toBe(FLAG.kit);
    expect(flagsOf(model, invalid as string) & (FLAG.kit | FLAG.kitInvalid)).toBe(FLAG.kitInvalid);
    expect(kindOf(model, invalid as string)).toBe("invalid kit entry · custom_message");
    expect(model.entries.previews[at(model, invalid as string)]).toMatch(/^ignored \(/);
    expect(kindOf(model, other as string)).toBe("custom_message · other-ext/note");
    expect(model.summary.recoveries).toBe(1);
  });

  it("gives one-line previews, cut to the preview length, with tool calls and errors", () => {
    const { model, b } = modelOf((b) => {
      b.user(`${"long   text\n".repeat(100)}end`);
      const call = b.assistant("Reading it.", [{ name: "read", args: { path: "src/a.ts" }, id: "c1" }]);
      b.toolResult("c1", "read", "ENOENT", { path: "/p/src/a.ts" }, true);
      b.label(call, "before the failure");
    });
    const [user, call, result, label] = b.entries.map((e) => at(model, e.id));
    const previews = model.entries.previews;
    expect(previews[user as number]).toHaveLength(PREVIEW_CHARS);
    expect(previews[user as number]).toMatch(/^long text long text .*…$/);
    expect(previews[call as number]).toBe('Reading it. → read({"path":"src/a.ts"})');
    expect(kindOf(model, b.entries[2]?.id as string)).toBe("toolResult · read");
    expect((model.entries.flags[result as number] as number) & FLAG.error).toBe(FLAG.error);
    expect(previews[label as number]).toBe(`${b.entries[1]?.id} ← "before the failure"`);
    expect(model.labels).toEqual([[call, "before the failure"]]);
  });

  it("counts denials and their scopes, from the structured tool results", () => {
    const model = buildPageModel("d", loadSession(join(SAMPLES, "denials-session.jsonl")));
    expect(model.summary).toMatchObject({ denials: 3, deniedScopes: 2, branches: 2 });
    expect(model.entries.flags.filter((f) => f & FLAG.denial)).toHaveLength(3);
  });

  it("says which line the host drops and which branch that orphans", () => {
    const b = new SessionBuilder();
    b.user("first");
    const lost = b.assistant("this line gets damaged");
    const child = b.user("after the damage");
    b.assistant("end of the orphaned branch");
    const lines = b.toJsonl().split("\n");
    lines[2] = lines[2]?.replace('"content":[', '"content":[,') as string;
    const model = buildPageModel("damaged", loadSessionText("damaged", lines.join("\n")));
    const dropped = model.diagnostics.find((d) => d.code === "E_JSON");
    const missing = model.diagnostics.find((d) => d.code === "E_MISSING_PARENT");
    const orphanLeaf = at(model, b.leafId as string);
    expect(dropped).toMatchObject({ line: 3, entry: -1, orphans: [at(model, child)], orphanLeaves: [orphanLeaf] });
    expect(missing).toMatchObject({ entry: at(model, child), orphans: [at(model, child)], orphanLeaves: [orphanLeaf] });
    expect(at(model, lost)).toBe(-1);
    expect(flagsOf(model, child) & FLAG.orphan).toBe(FLAG.orphan);
    expect(model.summary.diagnostics.errors).toBe(2);
  });

  it("stores a state only where it changes: a label keeps its parent's state", () => {
    const { model, b } = modelOf((b) => {
      b.user("go");
      const first = b.toolRound("edit", { path: "a" }, "ok", { path: "/p/a", mutated: true });
      b.label(first.call, "one");
      b.label(first.call, "two");
      b.toolRound("app_build", {}, "ok", { status: "passed" });
    });
    const changed = new Set(model.states.changes.filter((_, k) => k % 2 === 0));
    const labels = b.entries.filter((e) => e.type === "label").map((e) => at(model, e.id));
    for (const i of labels) expect(changed.has(i)).toBe(false);
    expect(changed.size).toBeLessThan(model.entries.ids.length);
    const d = client.decodeModel(model);
    const states = client.makeStates(d);
    for (const i of labels) expect(states.summaryAt(i)).toEqual(states.summaryAt(d.parents[i] as number));
    expect(states.summaryAt(model.activeLeaf).verification.checks.app_build?.status).toBe("passed");
    expect(states.changedAt(model.activeLeaf)).toEqual(["verification"]);
  });

  it("embeds full records within a budget, the active branch from its leaf up first", () => {
    const { model, b } = modelOf(
      (b) => {
        for (let i = 0; i < 10; i++) b.user(`request ${i} ${"x".repeat(200)}`);
      },
      { detailBudget: 1200 },
    );
    const embedded = model.details.map(([i]) => model.entries.ids[i]);
    expect(embedded).toEqual(b.entries.slice(-embedded.length).map((e) => e.id));
    expect(embedded.length).toBeGreaterThan(0);
    expect(embedded.length).toBeLessThan(10);
    expect(JSON.parse(model.details.at(-1)?.[1] as string)).toEqual(b.entries.at(-1));
  });

  it("embeds the active leaf's projection whatever the budget, others while the budget lasts", () => {
    const session = loadSession(join(SAMPLES, "branched-school-session.jsonl"));
    const none = buildPageModel("b", session, { projectionBudget: 0 });
    expect(none.projections.leaves.map((p) => p.leaf)).toEqual([none.activeLeaf]);
    expect(none.projections.skipped).toBe(1);
    const all = buildPageModel("b", session);
    expect(all.projections.leaves).toHaveLength(2);
    expect(all.projections.skipped).toBe(0);
  });

  it("is pure and deterministic: frozen input, the same JSON twice", () => {
    const session = loadSession(join(SAMPLES, "recovered-school-session.jsonl"));
    deepFreeze(session.log.entries);
    const first = JSON.stringify(buildPageModel("r", session));
    expect(JSON.stringify(buildPageModel("r", session))).toBe(first);
  });

  it("handles an empty session", () => {
    const model = buildPageModel("empty", loadSessionText("empty", new SessionBuilder().toJsonl()));
    expect(model.entries.ids).toEqual([]);
    expect(model.activeLeaf).toBe(-1);
    expect(model.summary).toMatchObject({ entries: 0, branches: 0, verification: { outcome: "no changes" } });
  });
});

describe("run-length coding of index lists", () => {
  it.each([[[]], [[5, 6, 7, 8]], [[3, 1, 4, 1, 5, 9, 2, 6]], [[10, 12, 14, 15, 16, 2]]])("round-trips %j", (list) => {
    expect(decodeRuns(encodeRuns(list))).toEqual(list);
  });

  it("takes two numbers for a consecutive run however long", () => {
    expect(encodeRuns(Array.from({ length: 100_000 }, (_, i) => i + 7))).toEqual([7, 1, 1, 99_999]);
  });
});
