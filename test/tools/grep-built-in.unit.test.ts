import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPolicy } from "../../src/policy/index.js";
import { createMemoryDenialTracker } from "../../src/tools/denial-tracker.js";
import { nodeToolFileOperations, type ToolFileOperations } from "../../src/tools/file-ops.js";
import { createGuardedTools } from "../../src/tools/guarded-tools.js";
import type { ToolResult } from "../../src/tools/tool-types.js";

/** Real file operations whose opens finish in an order unrelated to the order they were asked for. */
function shuffledOpens(opened: string[]): ToolFileOperations {
  let n = 0;
  return {
    ...nodeToolFileOperations,
    async openRead(path) {
      const delay = (n++ * 7) % 5;
      await new Promise((resolve) => setTimeout(resolve, delay));
      opened.push(path);
      return nodeToolFileOperations.openRead(path);
    },
  };
}

describe("the built-in grep (no rg) reading ahead", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "ck-grep-ahead-"));
    for (let d = 0; d < 4; d++) {
      mkdirSync(join(root, `d${d}`));
      for (let f = 0; f < 6; f++) writeFileSync(join(root, `d${d}`, `f${f}.txt`), `x\nhit ${d}.${f}\n`);
    }
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const grep = async (ops: Partial<ToolFileOperations> | undefined, params: Record<string, unknown>) => {
    const tools = createGuardedTools({
      policy: createPolicy({ root, protectedDirs: [] }),
      denials: createMemoryDenialTracker(),
      ...(ops ? { operations: ops } : { ripgrep: null }),
    });
    const r = (await tools.grep.execute("c", params as never, undefined, undefined, undefined)) as ToolResult;
    return r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  };

  it("prints matches in walk order however the reads finish, and stops at the limit", async () => {
    const opened: string[] = [];
    const text = await grep(shuffledOpens(opened), { pattern: "hit" });
    const expected = [0, 1, 2, 3].flatMap((d) => [0, 1, 2, 3, 4, 5].map((f) => `d${d}/f${f}.txt:2: hit ${d}.${f}`));
    expect(text).toBe(expected.join("\n"));
    expect(opened.length).toBe(24);
    expect(opened).not.toEqual([...opened].sort());

    const limited = await grep(shuffledOpens([]), { pattern: "hit", limit: 5 });
    expect(limited.split("\n\n[")[0]).toBe(expected.slice(0, 5).join("\n"));
    expect(limited).toContain("5 matches limit reached");
  });
});
