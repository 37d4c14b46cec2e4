import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectSession } from "../../src/cli/commands/inspect.js";
import { loadSession } from "../../src/session.js";
import { SHARED_SESSIONS, sharedSessionFiles } from "../helpers/shared-sessions.js";
import { writeLargeSession } from "../synth/large-session.js";

const scratch = mkdtempSync(join(tmpdir(), "ck-outline-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** inspect reads outlines only; its report must be the one a full read gives. */
function bothReads(path: string) {
  const full = loadSession(path);
  const outline = loadSession(path, { outline: true });
  return { full, outline, same: () => expect(inspectSession("f", outline)).toEqual(inspectSession("f", full)) };
}

describe("inspect on entry outlines reports what a full read reports", () => {
  it("keeps no content: an outline has no message text", () => {
    const file = join(import.meta.dirname, "../../evidence-samples/branched-school-session.jsonl");
    const { full, outline, same } = bothReads(file);
    same();
    const message = outline.log.entries.find((e) => e.type === "message");
    expect(message && "message" in message ? Object.keys(message.message) : null).toEqual(["role"]);
    expect(outline.log.entries.map((e) => e.id)).toEqual(full.log.entries.map((e) => e.id));
  });

  it("a generated 25-leaf tree", () => {
    const info = writeLargeSession(join(scratch, "tree.jsonl"), { entries: 2000, leaves: 25, seed: 7 });
    const { outline, same } = bothReads(info.file);
    same();
    expect(inspectSession("f", outline).leaves).toHaveLength(25);
  });

  const real = sharedSessionFiles("inspect-outline");
  it.skipIf(real.length === 0)("every real session", () => {
    for (const name of real) bothReads(join(SHARED_SESSIONS, name)).same();
  });
});
