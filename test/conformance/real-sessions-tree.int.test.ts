import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FATAL_CODES } from "../../src/log/diagnostics.js";
import { loadSession } from "../../src/session.js";
import { host } from "../helpers/host.js";
import { SHARED_SESSIONS, sharedSessionFiles } from "../helpers/shared-sessions.js";

const DIR = SHARED_SESSIONS;
const files = sharedSessionFiles("real-sessions-tree");

const scratch = mkdtempSync(join(tmpdir(), "ck-real-tree-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

interface HostTree {
  leaves: string[];
  activeLeafId: string | null;
  entries: number;
}

/** The host's SessionManager on a scratch copy: `open` rewrites migrated files and replaces bad headers. */
function hostTree(original: string, name: string): HostTree {
  const dir = mkdtempSync(join(scratch, "sm-"));
  const copy = join(dir, name);
  copyFileSync(original, copy);
  const sm = host.SessionManager.open(copy, dir);
  const leaves: string[] = [];
  const stack = [...sm.getTree()];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.children.length === 0) leaves.push(node.entry.id);
    stack.push(...node.children);
  }
  return { leaves, activeLeafId: sm.getLeafId() ?? null, entries: sm.getEntries().length };
}

describe.skipIf(files.length === 0)("real Pi session files: leaves and the active leaf equal the host's", () => {
  it.each(files)("%s", (name) => {
    const original = join(DIR, name);
    const before = sha256(original);
    const { log, tree } = loadSession(original);
    const theirs = hostTree(original, name);
    expect(sha256(original)).toBe(before);

    if (log.unusable) {
      // A file with no session header: the host starts it afresh; the kit refuses it with a fatal diagnostic.
      expect(log.diagnostics.some((d) => FATAL_CODES.has(d.code))).toBe(true);
      expect(theirs.entries).toBe(0);
      return;
    }
    expect(tree.leaves().length).toBeGreaterThan(0);
    expect(log.entries).toHaveLength(theirs.entries);
    if (log.sourceVersion < 2) {
      // v1 ids are derived by the kit and random in the host: compare the shape only.
      expect(tree.leaves()).toHaveLength(theirs.leaves.length);
      expect(theirs.activeLeafId).not.toBeNull();
      expect(tree.activeLeafId).toBe(log.entries.at(-1)?.id);
      return;
    }
    expect(tree.activeLeafId).toBe(theirs.activeLeafId);
    expect([...tree.leaves()].sort()).toEqual([...theirs.leaves].sort());
  });

  it("covers v1 files and many-leaf trees", () => {
    const read = files.map((name) => loadSession(join(DIR, name)));
    expect(read.some((s) => s.log.sourceVersion < 2)).toBe(true);
    expect(Math.max(...read.map((s) => s.tree.leaves().length))).toBeGreaterThanOrEqual(10);
  });
});
