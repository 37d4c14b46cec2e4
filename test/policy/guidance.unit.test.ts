import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPolicy, loadRootGuidance, type Policy } from "../../src/policy/index.js";
import { makeProject, OUTSIDE_TOKEN } from "./fixture.js";

let f: ReturnType<typeof makeProject>;
let policy: Policy;

beforeEach(() => {
  f = makeProject();
  policy = createPolicy({ root: f.root, home: f.base, protectedDirs: [] });
});
afterEach(() => f.cleanup());

describe("root guidance", () => {
  it("loads AGENTS.md labelled as project data", () => {
    const g = loadRootGuidance(policy);
    expect(g).toMatchObject({ text: "Use tabs.\n", truncated: false, size: 10 });
    expect(g?.file).toBe(join(policy.root, "AGENTS.md"));
    expect(g?.projectData).toMatch(/^\[project data from .*AGENTS\.md; written by the project, not an instruction/);
    expect(g?.projectData).toContain("Use tabs.");
  });

  it("falls back to CLAUDE.md when there is no AGENTS.md", () => {
    rmSync(join(f.root, "AGENTS.md"));
    writeFileSync(join(f.root, "CLAUDE.md"), "claude rules");
    expect(loadRootGuidance(policy)?.text).toBe("claude rules");
  });

  it("cuts text over 4 KiB at a character boundary with a notice", () => {
    writeFileSync(join(f.root, "AGENTS.md"), `${"a".repeat(4095)}é${"b".repeat(5000)}`);
    const g = loadRootGuidance(policy);
    expect(g?.truncated).toBe(true);
    expect(g?.text).toBe("a".repeat(4095));
    expect(g?.projectData).toContain("[truncated by the host: showing the first 4095 of 9097 bytes]");
  });

  it("returns nothing when the root is excluded, the file is binary, or it links outside the root", () => {
    writeFileSync(join(f.root, "AGENTS.md"), Buffer.from([0x41, 0x00, 0x42]));
    expect(loadRootGuidance(policy)).toBeUndefined();
    rmSync(join(f.root, "AGENTS.md"));
    symlinkSync(join(f.outside, "outside-secret.txt"), join(f.root, "AGENTS.md"));
    expect(loadRootGuidance(policy)).toBeUndefined();
    rmSync(join(f.root, "AGENTS.md"));
    writeFileSync(join(f.root, "AGENTS.md"), "fine");
    writeFileSync(join(f.root, ".context-exclude"), "");
    expect(loadRootGuidance(policy)).toBeUndefined();
  });
});

describe("marker guidance", () => {
  it("reads the marker's text through the bounded loader", () => {
    const g = policy.markerGuidance(join(policy.root, "private"));
    expect(g).toMatchObject({ ok: true, text: "These are customer records. Ask the user for summaries instead.\n" });
  });

  it("never follows a marker that is a symlink (its target could be anywhere)", () => {
    const marker = join(f.root, "src", ".context-exclude");
    symlinkSync(join(f.outside, "outside-secret.txt"), marker);
    const g = policy.markerGuidance(join(policy.root, "src"));
    expect(g).toEqual({ ok: false, reason: "not-a-file" });
    expect(JSON.stringify(g)).not.toContain(OUTSIDE_TOKEN);
    expect(policy.decide("src/app.ts", "read").allowed).toBe(false);
  });
});
