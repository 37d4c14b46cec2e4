import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { severityOf } from "../../src/log/diagnostics.js";
import type { SessionEntry } from "../../src/log/entry-types.js";
import { INVALID_RECORD_TYPE, isInvalidRecordStub } from "../../src/log/invalid-record.js";
import { type LoadedSession, loadSession, loadSessionText } from "../../src/session.js";
import { buildHostContext } from "../../src/tree/host-context.js";
import { host, hostContext } from "../helpers/host.js";
import { buildVariants, type Variant } from "./malformed-corpus.js";

type HostRecord = Record<string, unknown>;

const scratch = mkdtempSync(join(tmpdir(), "ck-corpus-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const variants = buildVariants();

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function lineStarts(bytes: Buffer): number[] {
  const starts = [0];
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) starts.push(at + 1);
  return starts;
}

/** What `SessionManager.open` loads, without the writes: parse, the header check, migration, header removed. */
function hostLoad(text: string): HostRecord[] {
  const all = host.parseSessionEntries(text) as unknown as HostRecord[];
  const first = all[0];
  if (first?.type !== "session" || typeof first.id !== "string") return [];
  host.migrateSessionEntries(all as never);
  return all.filter((e) => e.type !== "session");
}

const isObject = (v: unknown): v is HostRecord => v !== null && typeof v === "object" && !Array.isArray(v);

/** Entries with every id replaced by its position, so that two migrations with different ids compare equal. */
function positional(entries: readonly HostRecord[]): unknown[] {
  const index = new Map(entries.map((e, i) => [e.id, i]));
  const at = (id: unknown) => (typeof id === "string" ? (index.get(id) ?? `missing:${id}`) : id);
  return entries.map((e) => {
    const out: HostRecord = { ...e, id: at(e.id), parentId: at(e.parentId) };
    if ("firstKeptEntryId" in e) out.firstKeptEntryId = at(e.firstKeptEntryId);
    return out;
  });
}

const skeleton = (entries: readonly HostRecord[]) => entries.map((e) => `${e.type}:${e.id}:${e.parentId}`);

/**
 * The kit replaces a record that fails its schema by a stand-in that keeps its id, parent and type; checked against the
 * host's record, the stand-in is swapped back so the rest compares as before.
 */
function withStubsChecked(ours: HostRecord[], host: readonly HostRecord[]): HostRecord[] {
  return ours.map((e) => {
    if (e.type !== INVALID_RECORD_TYPE) return e;
    const original = host.find((h) => h.id === e.id);
    expect(original, `stand-in ${e.id}`).toBeDefined();
    expect(e.parentId).toBe(typeof original?.parentId === "string" ? original.parentId : null);
    expect(e.recordType).toBe(original?.type);
    return original as HostRecord;
  });
}

function compareWithHost(v: Variant, session: LoadedSession, read: <T>(fn: () => T) => T): void {
  const text = v.bytes.toString("utf8");
  const hostRecords = (() => {
    try {
      return hostLoad(text);
    } catch {
      return [];
    }
  })();
  const ours = withStubsChecked(session.log.entries as unknown as HostRecord[], hostRecords);
  let theirs: HostRecord[];
  switch (v.host) {
    case "exact":
      theirs = read(() => hostLoad(text));
      expect(ours).toEqual(theirs);
      break;
    case "positional":
      theirs = read(() => hostLoad(text));
      expect(positional(ours)).toEqual(positional(theirs));
      break;
    case "skeleton":
      theirs = read(() => hostLoad(text));
      expect(skeleton(ours)).toEqual(skeleton(theirs));
      return;
    case "objects": {
      // The host keeps every JSON value (and fails on `null` when it indexes them); the kit keeps the objects.
      const parsed = host.parseSessionEntries(text) as unknown[];
      theirs = parsed.filter(isObject).filter((e) => e.type !== "session");
      expect(parsed.length - theirs.length - 1).toBe(session.log.dropped.length);
      expect(ours).toEqual(theirs);
      break;
    }
    case "without-dropped": {
      theirs = read(() => hostLoad(text));
      const droppedLines = new Set(session.log.dropped.map((d) => d.line));
      expect(theirs.length).toBe(ours.length + droppedLines.size);
      expect(ours).toEqual(theirs.filter((e) => typeof e.id === "string"));
      break;
    }
  }
  // The host's path walk never ends on a cycle: compare contexts only where it can build them.
  if (session.diagnostics.some((d) => d.code === "E_CYCLE")) return;
  const tree = session.tree;
  if (v.hostContextThrows) {
    expect(() => hostContext(theirs, undefined)).toThrow(TypeError);
    expect(buildHostContext(tree).messages).toHaveLength(1);
    return;
  }
  const hostLeaf = (leaf: string) =>
    v.host === "positional" ? (theirs[ours.findIndex((e) => e.id === leaf)]?.id as string) : leaf;
  // What the kit leaves out of views: the content of records that failed their schema (their place stays).
  const stubbed = new Set(session.log.entries.filter(isInvalidRecordStub).map((e) => e.id));
  const hostInput = theirs.map((e) =>
    stubbed.has(e.id as string) ? { type: "label", id: e.id, parentId: e.parentId, timestamp: e.timestamp } : e,
  );
  for (const leaf of [...tree.leaves(), undefined]) {
    const mine = buildHostContext(tree, leaf);
    const host = read(() => hostContext(hostInput, leaf === undefined ? undefined : hostLeaf(leaf)));
    expect(mine.messages).toEqual(host.messages);
    expect(mine.thinkingLevel).toBe(host.thinkingLevel);
    expect(mine.model).toEqual(host.model);
  }
}

/** Leaves and the active leaf of the host's SessionManager, opened on a scratch copy (open may rewrite it). */
function compareWithSessionManager(v: Variant, session: LoadedSession, name: string): void {
  const dir = mkdtempSync(join(scratch, `sm-${name}-`));
  const copy = join(dir, "copy.jsonl");
  writeFileSync(copy, v.bytes);
  const sm = host.SessionManager.open(copy, dir);
  const hostLeaves: string[] = [];
  const stack = [...sm.getTree()];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.children.length === 0) hostLeaves.push(node.entry.id);
    stack.push(...node.children);
  }
  const tree = session.tree;
  if (v.host === "positional") {
    expect(tree.leaves()).toHaveLength(hostLeaves.length);
    expect(tree.activeLeafId === null).toBe(sm.getLeafId() === null);
    expect(tree.size).toBe(sm.getEntries().length);
    return;
  }
  expect(tree.activeLeafId).toBe(sm.getLeafId());
  expect([...tree.leaves()].sort()).toEqual(hostLeaves.sort());
}

describe("malformed session files: a diagnostic for each, never a throw, never a write", () => {
  it("the corpus holds at least 30 variants", () => {
    expect(variants.length).toBeGreaterThanOrEqual(30);
    expect(new Set(variants.map((v) => v.name)).size).toBe(variants.length);
  });

  it.each(variants.map((v, i) => [v.name, i, v] as const))("%s", (_name, index, v) => {
    const file = join(scratch, `variant-${index}.jsonl`);
    writeFileSync(file, v.bytes);
    const before = { hash: sha256(readFileSync(file)), stat: statSync(file) };
    const read = v.around ?? (<T>(fn: () => T) => fn());

    let session: LoadedSession | undefined;
    expect(() => {
      session = read(() => loadSession(file));
    }).not.toThrow();
    const loaded = session!;
    const fromText = read(() => loadSessionText(file, v.bytes));
    const again = v.bytes.length < 1_000_000 ? read(() => loadSession(file)) : fromText;

    const after = statSync(file);
    expect(sha256(readFileSync(file))).toBe(before.hash);
    expect(after.size).toBe(before.stat.size);
    expect(after.mtimeMs).toBe(before.stat.mtimeMs);

    expect(loaded.diagnostics.map((d) => `${d.code}@${d.line}`)).toEqual(v.expected);
    const starts = lineStarts(v.bytes);
    for (const d of loaded.diagnostics) {
      expect(d.byteOffset, `${d.code}@${d.line}`).toBe(starts[d.line - 1]);
      expect(d.severity).toBe(severityOf(d.code));
      expect(d.message.length).toBeGreaterThan(0);
    }
    expect(loaded.log.entries).toHaveLength(v.entries);
    expect(loaded.log.unusable).toBe(v.unusable ?? false);
    expect(loaded.log.bytes).toBe(v.bytes.length);
    for (const p of loaded.log.positions) expect(p.byteOffset).toBe(starts[p.line - 1]);

    // The streaming file reader, the in-memory reader and a second read agree (v1 ids are derived, not random).
    const ids = (s: LoadedSession) => s.log.entries.map((e) => `${e.type}:${e.id}:${e.parentId}`);
    for (const other of [again, fromText]) {
      expect(other.diagnostics).toEqual(loaded.diagnostics);
      expect(other.log.positions).toEqual(loaded.log.positions);
      expect(ids(other)).toEqual(ids(loaded));
    }

    // The tree builds whatever the damage: every path ends at a root, every entry has a depth.
    const tree = loaded.tree;
    for (const leaf of tree.leaves()) {
      const path = tree.pathTo(leaf);
      expect(path.at(-1)?.id).toBe(leaf);
      expect(tree.roots).toContain((path[0] as SessionEntry).id);
      expect(tree.depth(leaf)).toBe(path.length - 1);
      buildHostContext(tree, leaf);
    }
    expect(tree.activeLeafId).toBe(loaded.log.entries.at(-1)?.id ?? null);

    compareWithHost(v, loaded, read);
    if (v.sessionManager) compareWithSessionManager(v, loaded, String(index));
    v.check?.(loaded);
  });
});
