import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KIT, TOOL_LOOP_PREFIX } from "../../reducers/contract/kit-entries.js";
import { runCli } from "../../src/cli/run.js";
import { SessionBuilder } from "../synth/session-builder.js";

const dir = mkdtempSync(join(tmpdir(), "ck-loop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, build: (b: SessionBuilder) => void): string {
  const b = new SessionBuilder({ sessionId: `loop-${name}` });
  build(b);
  writeFileSync(join(dir, name), b.toJsonl());
  return name;
}

const looping = write("looping.jsonl", (b) => {
  b.user("What is in config.json?");
  for (let i = 0; i < 5; i++) b.toolRound("read", { path: "config.json" }, '{"port": 8080}');
});
const polling = write("polling.jsonl", (b) => {
  b.user("Wait for the build to finish.");
  for (let i = 0; i < 6; i++) b.toolRound("read", { path: "build.log" }, `compiled ${i + 1} of 6 modules`);
  b.assistant("The build finished.");
});

const escaped = write("escaped.jsonl", (b) => {
  b.user("Fix the build.");
  for (let i = 0; i < 4; i++) b.toolRound("read", { path: "missing.ts" }, "ENOENT: missing.ts", undefined, true);
  b.toolRound("ls", { path: "." }, "a.ts");
  b.assistant("missing.ts does not exist; a.ts is the only file.");
});

async function json(argv: string[]) {
  const out = await runCli([...argv, "--json"], { cwd: dir });
  return { exitCode: out.exitCode, doc: JSON.parse(out.stdout) };
}

describe("tool loops offline", () => {
  it("detect --json adds toolLoop {kind, calls, entryIds}; --fail-on-stall fails on it", async () => {
    const { exitCode, doc } = await json(["detect", looping]);
    expect(exitCode).toBe(0);
    expect(doc.stalled).toBe(false);
    expect(doc.toolLoop.kind).toBe("repeat");
    expect(doc.toolLoop.calls).toEqual([{ tool: "read", args: { path: "config.json" } }]);
    expect(doc.toolLoop.entryIds).toHaveLength(10);
    expect((await runCli(["detect", looping, "--fail-on-stall"], { cwd: dir })).exitCode).toBe(1);
    const text = await runCli(["detect", looping], { cwd: dir });
    expect(text.stdout).toContain('tool loop: REPEAT: read {"path":"config.json"}');
  });

  it("a poll whose result changes is no loop: toolLoop null, exit 0 with --fail-on-stall", async () => {
    const { exitCode, doc } = await json(["detect", polling, "--fail-on-stall"]);
    expect(exitCode).toBe(0);
    expect(doc.toolLoop).toBeNull();
  });

  it("replay --json lists every episode on the branch, escaped or not, with the wasted calls; detect reports none", async () => {
    const { doc } = await json(["replay", escaped]);
    const branch = doc.files[0].branches[0];
    expect(branch.toolLoop.loop).toBeNull();
    expect(branch.toolLoopEpisodes).toHaveLength(1);
    expect(branch.toolLoopEpisodes[0]).toMatchObject({
      kind: "repeated-failure",
      calls: [{ tool: "read", args: { path: "missing.ts" } }],
      callCount: 4,
      wastedCalls: 3,
      atLeaf: false,
    });
    expect(branch.toolLoopEpisodes[0].entryIds).toHaveLength(8);
    expect(branch.toolLoopWastedCalls).toBe(3);
    const atLeaf = await json(["replay", looping]);
    expect(atLeaf.doc.files[0].branches[0].toolLoopEpisodes.map((e: { atLeaf: boolean }) => e.atLeaf)).toEqual([true]);
    const detect = await json(["detect", escaped]);
    expect(detect.doc.toolLoop).toBeNull();
    const text = await runCli(["replay", escaped], { cwd: dir });
    expect(text.stdout).toContain("tool-loop 1 episode on the branch, 3 calls wasted");
  });

  it("replay shows the loop on the branch", async () => {
    const { doc } = await json(["replay", looping]);
    expect(doc.files[0].branches[0].toolLoop).toMatchObject({
      loop: { kind: "repeat" },
      markerId: null,
      markersThisRequest: 0,
    });
  });

  it("recover appends a loop marker once, keeping the original bytes; then the leaf is marked", async () => {
    const path = join(dir, looping);
    const before = readFileSync(path);
    const { exitCode, doc } = await json(["recover", looping, "--force", "--backup-dir", "backups"]);
    expect(exitCode).toBe(0);
    expect(doc.recovered).toBe(true);
    const after = readFileSync(path);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const appended = JSON.parse(after.subarray(before.length).toString("utf8"));
    expect(appended.customType).toBe(KIT.toolLoopMarker);
    expect(appended.content).toMatch(new RegExp(`^${TOOL_LOOP_PREFIX}: .*repeat`));
    expect(appended.content).toContain('read {"path":"config.json"}');
    expect(appended.content).toContain('Unchanged result: {"port": 8080}');
    const again = await json(["recover", looping, "--force"]);
    expect(again.doc.recovered).toBe(false);
    expect(readFileSync(path).length).toBe(after.length);
    const replay = await json(["replay", looping]);
    expect(replay.doc.files[0].branches[0].toolLoop.markerId).toBe(appended.id);
  });

  it("report marks leaves that end in a loop", async () => {
    const out = await runCli(["report", polling, "--out", "polling.html"], { cwd: dir });
    expect(out.exitCode).toBe(0);
    expect(readFileSync(join(dir, "polling.html"), "utf8")).toContain("<b>0</b> leaves in a tool loop");
    await runCli(["report", looping, "--out", "looping.html"], { cwd: dir });
    expect(readFileSync(join(dir, "looping.html"), "utf8")).toMatch(
      /class="chip bad"[^>]*><b>1<\/b> leaf in a tool loop/,
    );
  });
});
