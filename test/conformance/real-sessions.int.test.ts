import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSessionFile } from "../../src/log/read-session.js";
import { buildHostContext } from "../../src/tree/host-context.js";
import { SessionTree } from "../../src/tree/session-tree.js";
import { hostContext, hostRead } from "../helpers/host.js";

const DIR = join(import.meta.dirname, "../../../shared/pi-sessions");
const files = existsSync(DIR) ? readdirSync(DIR).filter((f) => f.endsWith(".jsonl")) : [];

describe.skipIf(files.length === 0)("real Pi session files: the kit reads what the host reads", () => {
  it.each(files)("%s", (name) => {
    const path = join(DIR, name);
    const log = readSessionFile(path);
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
