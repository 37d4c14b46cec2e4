import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FATAL_CODES } from "../../src/log/diagnostics.js";
import { readSessionFile } from "../../src/log/read-session.js";
import { buildHostContext } from "../../src/tree/host-context.js";
import { SessionTree } from "../../src/tree/session-tree.js";
import { hostContext, hostRead } from "../helpers/host.js";
import { SHARED_SESSIONS, sharedSessionFiles } from "../helpers/shared-sessions.js";

const DIR = SHARED_SESSIONS;
const files = sharedSessionFiles("real-sessions");

describe.skipIf(files.length === 0)("real Pi session files: the kit reads what the host reads", () => {
  it.each(files)("%s", (name) => {
    const path = join(DIR, name);
    const log = readSessionFile(path);
    if (log.unusable) {
      // A file with no session header is refused (the host would start it afresh), not compared.
      expect(log.diagnostics.some((d) => FATAL_CODES.has(d.code))).toBe(true);
      return;
    }
    const tree = SessionTree.fromLog(log);
    const { entries } = hostRead(readFileSync(path, "utf8"));
    expect(log.entries.length).toBe(entries.length);
    const v1 = log.sourceVersion < 2;
    for (const leaf of tree.leaves()) {
      const ours = buildHostContext(tree, leaf);
      // v1 ids differ (the host picks random ones); compare the branch by position instead.
      const hostLeaf = v1 ? (entries[log.entries.findIndex((e) => e.id === leaf)] as { id: string }).id : leaf;
      const theirs = hostContext(entries, hostLeaf);
      expect(ours.messages).toEqual(theirs.messages);
      expect(ours.thinkingLevel).toEqual(theirs.thinkingLevel);
      expect(ours.model).toEqual(theirs.model);
    }
  });
});
