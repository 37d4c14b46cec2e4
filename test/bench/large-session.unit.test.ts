import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadSession } from "../../src/session.js";
import { buildHostContext } from "../../src/tree/host-context.js";
import { hostContext, hostRead } from "../helpers/host.js";
import { writeLargeSession } from "../synth/large-session.js";

const scratch = mkdtempSync(join(tmpdir(), "ck-large-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("large synthetic sessions", () => {
  it("are deterministic: the same options write the same bytes; another seed writes others", () => {
    const a = writeLargeSession(join(scratch, "a.jsonl"), { entries: 1500, seed: 7 });
    const b = writeLargeSession(join(scratch, "b.jsonl"), { entries: 1500, seed: 7 });
    const c = writeLargeSession(join(scratch, "c.jsonl"), { entries: 1500, seed: 8 });
    expect(sha(a.file)).toBe(sha(b.file));
    expect(sha(a.file)).not.toBe(sha(c.file));
    expect(a.bytes).toBe(readFileSync(a.file).length);
  });

  it("hold exactly the entries asked for, about 1 KB each like real sessions, with non-Latin-1 text", () => {
    const info = writeLargeSession(join(scratch, "linear.jsonl"), { entries: 2000 });
    const { log, tree, diagnostics } = loadSession(info.file);
    expect(diagnostics).toEqual([]);
    expect(log.entries).toHaveLength(2000);
    expect(tree.leaves()).toEqual([info.activeLeafId]);
    expect(tree.depth(info.activeLeafId)).toBe(1999);
    expect(info.bytes / 2000).toBeGreaterThan(600);
    expect(info.bytes / 2000).toBeLessThan(1600);
    const text = readFileSync(info.file, "utf8");
    expect([...text].some((ch) => (ch.codePointAt(0) as number) > 0xff)).toBe(true);
    const roles = new Set(log.entries.map((e) => (e.type === "message" ? e.message.role : e.type)));
    for (const kind of ["user", "assistant", "toolResult", "model_change", "thinking_level_change"]) {
      expect(roles).toContain(kind);
    }
  });

  it("with leaves: n, have exactly n leaves, and the host builds the same context as the kit for each", () => {
    const info = writeLargeSession(join(scratch, "tree.jsonl"), { entries: 1200, leaves: 25, seed: 2 });
    const { tree, diagnostics } = loadSession(info.file);
    expect(diagnostics).toEqual([]);
    expect(tree.leaves()).toEqual(info.leafIds);
    expect(tree.activeLeafId).toBe(info.activeLeafId);
    expect(tree.entries.filter((e) => e.type === "branch_summary")).toHaveLength(24);
    const { entries } = hostRead(readFileSync(info.file, "utf8"));
    for (const leaf of info.leafIds) {
      expect(buildHostContext(tree, leaf).messages).toEqual(hostContext(entries, leaf).messages);
    }
  });

  it("refuse a tree too small for its leaves", () => {
    expect(() => writeLargeSession(join(scratch, "tiny.jsonl"), { entries: 50, leaves: 25 })).toThrow(/at least/);
  });
});
