import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldTree } from "../../src/fold/session-fold.js";
import { FATAL_CODES } from "../../src/log/diagnostics.js";
import { readSessionFile } from "../../src/log/read-session.js";
import { loadHostModule } from "../../src/pi/host.js";
import { type LoadedSession, loadSessionText } from "../../src/session.js";
import { buildHostContext } from "../../src/tree/host-context.js";
import { SessionTree } from "../../src/tree/session-tree.js";
import { cleanupCliSandboxes, createCliSandbox, FAUX_CLI_EXT, readJsonLines } from "../helpers/faux-cli.js";
import { SHARED_SESSIONS, sharedSessionFiles } from "../helpers/shared-sessions.js";
import { expectCheckClean } from "../helpers/tool-loop-scenarios.js";
import { randomSession } from "../synth/random-tree.js";
import { COMPACTING_SETTINGS, HOST1, HOST1_CLI, KIT_EXTENSION, runRpc, SKIP_HOST1 } from "./lane.js";

type Entry = Record<string, unknown> & { type: string; id: string };
interface Host1 {
  parseSessionEntries(text: string): Entry[];
  migrateSessionEntries(entries: Entry[]): void;
  buildSessionContext(
    entries: Entry[],
    leafId?: string | null,
  ): { messages: unknown[]; thinkingLevel: string; model: unknown };
  SessionManager: {
    open(path: string, sessionDir?: string): Host1SessionManager;
  };
}
interface Host1SessionManager {
  getEntries(): Entry[];
  getLeafId(): string | null;
  branch(id: string): void;
  branchWithSummary(id: string | null, summary: string): string;
  appendMessage(message: Record<string, unknown>): string;
  appendContextEdit(targetId: string, replacement: { content: unknown } | null): string;
  appendUsage(kind: string, provider: string, model: string, usage: Record<string, unknown>): string;
  appendCompaction(summary: string, firstKeptEntryId: string | null, tokensBefore: number): string;
  appendCustomMessageEntry(customType: string, content: unknown, display: boolean): string;
}

const scratch = mkdtempSync(join(tmpdir(), "ck-host1-conformance-"));
let host: Host1;
beforeAll(async () => {
  if (SKIP_HOST1) return;
  // Pi captures its agent dir at import: keep it in the scratch folder.
  process.env.PI_CODING_AGENT_DIR = join(scratch, "agent");
  process.env.PI_OFFLINE = "1";
  host = (await loadHostModule(HOST1!)) as unknown as Host1;
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  cleanupCliSandboxes();
});

/** The host's own offline reading of a file's text: parse, migrate in memory, entries without the header. */
function hostEntries(text: string): Entry[] {
  const all = host.parseSessionEntries(text);
  host.migrateSessionEntries(all);
  return all.filter((e) => e.type !== "session");
}

/** The kit's context for each leaf (and the active leaf, and null) equals 1.x's buildSessionContext. */
function expectSameContexts(session: LoadedSession, entries: Entry[], leaves: Iterable<string>, byPosition = false) {
  const ours = session.log.entries;
  const hostLeaf = (leaf: string) => (byPosition ? entries[ours.findIndex((e) => e.id === leaf)]?.id : leaf);
  let compared = 0;
  for (const leaf of [...leaves, undefined, null]) {
    const mine = buildHostContext(session.tree, leaf);
    const theirs = host.buildSessionContext(entries, typeof leaf === "string" ? hostLeaf(leaf) : leaf);
    expect(mine.messages, String(leaf)).toEqual(theirs.messages);
    expect(mine.thinkingLevel, String(leaf)).toBe(theirs.thinkingLevel);
    expect(mine.model, String(leaf)).toEqual(theirs.model);
    compared++;
  }
  return compared;
}

const errors = (session: LoadedSession) => session.diagnostics.filter((d) => d.severity === "error");

const SHARED = SHARED_SESSIONS;
const sharedFiles = SKIP_HOST1 ? [] : sharedSessionFiles("host1 conformance");

describe.skipIf(SKIP_HOST1 || sharedFiles.length === 0)(
  "real Pi session files: the kit reads what Pi 1.x reads",
  () => {
    it.each(sharedFiles)("%s", (name) => {
      const path = join(SHARED, name);
      const log = readSessionFile(path);
      if (log.unusable) {
        // A file with no session header is refused (the host would start it afresh), not compared.
        expect(log.diagnostics.some((d) => FATAL_CODES.has(d.code))).toBe(true);
        return;
      }
      const tree = SessionTree.fromLog(log);
      const entries = hostEntries(readFileSync(path, "utf8"));
      expect(log.entries.length).toBe(entries.length);
      const session = { log, tree, diagnostics: [] };
      expectSameContexts(session, entries, tree.leaves(), log.sourceVersion < 2);
    });
  },
);

const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);

describe.skipIf(SKIP_HOST1)(
  "random trees: the kit's context for every leaf equals Pi 1.x's buildSessionContext",
  () => {
    it("300 seeds", () => {
      for (const seed of SEEDS) {
        const text = randomSession(seed, 30 + (seed % 50)).toJsonl();
        const session = loadSessionText(`random-${seed}`, text);
        expect(errors(session), `seed ${seed}`).toEqual([]);
        expectSameContexts(session, hostEntries(text), session.tree.leaves());
      }
    });
  },
);

const PROMISE = "Let me check the compiler errors first.";
const OMITTED = "An answer a context_edit omits.";
const PATCH = "<rules>\n- Prefer small diffs.\n</rules>";

describe.skipIf(SKIP_HOST1)("sessions written by Pi 1.x: the kit reads them as 1.x does", () => {
  let cliFile = "";
  let extendedFile = "";
  let afterSecond = "";
  let afterRetainNone = "";

  beforeAll(async () => {
    // 1. The real 1.x CLI in RPC mode with the faux provider and the kit: system messages, tool results, the kit's
    //    recovery markers, a session name, a manual compaction (with its system message checkpoint), more turns.
    const sandbox = createCliSandbox({ files: { "hello.txt": "hi\n" }, settings: COMPACTING_SETTINGS });
    cliFile = join(scratch, "cli.jsonl");
    const summary = { text: "## Goal\nScenarios.\n## Progress\nRead hello.txt." };
    const run = await runRpc({
      entry: HOST1_CLI,
      sandbox,
      args: [
        "--no-extensions",
        "-e",
        FAUX_CLI_EXT,
        "-e",
        KIT_EXTENSION,
        "--model",
        "faux/faux-1",
        "--session",
        cliFile,
      ],
      script: [
        { text: "Reading.", toolCalls: [{ name: "read", args: { path: "hello.txt" } }] },
        { text: "It says hi." },
        { text: PROMISE },
        { text: PROMISE },
        { text: PROMISE },
        { text: "Listing.", toolCalls: [{ name: "ls", args: { path: "." } }] },
        { text: "Done." },
        summary,
        summary,
        { text: "Still here after the compaction." },
      ],
      steps: async (rpc) => {
        await rpc.prompt("What does hello.txt say?");
        rpc.send({ type: "set_session_name", name: "conformance" });
        await rpc.prompt("Scenarios?");
        await rpc.prompt("Scenarios please.");
        await rpc.prompt("Scenarios now.");
        await rpc.idle();
        rpc.send({ id: "compact", type: "compact" });
        await rpc.until(() => rpc.events.some((e) => e.type === "response" && e.id === "compact"));
        await rpc.prompt("Anything else?");
      },
    });
    expect(run.exitCode).toBe(0);
    const compacted = run.events.find((e) => e.type === "response" && e.id === "compact");
    expect(compacted?.success).toBe(true);

    // 2. The same file continued through 1.x's SessionManager: a tool round, a system message patch, context edits
    //    (omit, replace), usage, a second compaction whose kept range holds that patch (dropped from the context)
    //    and the edited entries, and branches around it.
    extendedFile = join(scratch, "extended.jsonl");
    copyFileSync(cliFile, extendedFile);
    const sm = host.SessionManager.open(extendedFile, scratch);
    const lastUser = sm
      .getEntries()
      .filter((e) => e.type === "message" && (e.message as { role: string }).role === "user")
      .at(-1)!.id;
    const assistant = (content: unknown[], stopReason: string) => ({
      role: "assistant",
      content,
      api: "faux",
      provider: "faux",
      model: "faux-1",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 },
      stopReason,
      timestamp: Date.now(),
    });
    sm.appendMessage(assistant([{ type: "toolCall", id: "call_sm", name: "ls", arguments: { path: "." } }], "toolUse"));
    const result = sm.appendMessage({
      role: "toolResult",
      toolCallId: "call_sm",
      toolName: "ls",
      content: [{ type: "text", text: "hello.txt" }],
      isError: false,
      timestamp: Date.now(),
    });
    const answer = sm.appendMessage(assistant([{ type: "text", text: OMITTED }], "stop"));
    sm.appendMessage({ role: "system", content: "", sections: { rules: PATCH }, timestamp: Date.now() });
    sm.appendMessage({ role: "user", content: "Patch the rules.", timestamp: Date.now() });
    sm.appendUsage("cache_warm", "faux", "faux-1", {
      input: 1,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 1,
    });
    sm.appendContextEdit(answer, null);
    sm.appendContextEdit(lastUser, { content: "A replaced question." });
    sm.appendContextEdit(result, { content: "redacted" });
    sm.appendCustomMessageEntry("conformance/note", "a note for the model", false);
    const beforeSecond = sm.getLeafId()!;
    sm.appendCompaction("Second summary.", lastUser, 1234);
    afterSecond = sm.appendMessage({ role: "user", content: "After the second compaction.", timestamp: Date.now() });
    sm.branch(beforeSecond);
    sm.appendMessage({ role: "user", content: "A sibling branch without the second compaction.", timestamp: 1 });
    sm.branchWithSummary(lastUser, "Left a branch.");
    // 1.6 records: a tool whose result records its nested calls, a call Esc cancelled before it started, then a
    // retain-none compaction (it keeps no entry before itself) and a turn after it.
    sm.appendMessage(
      assistant([{ type: "toolCall", id: "call_cm", name: "codemode", arguments: { code: "…" } }], "toolUse"),
    );
    sm.appendMessage({
      role: "toolResult",
      toolCallId: "call_cm",
      toolName: "codemode",
      content: [{ type: "text", text: "ran 2 calls" }],
      nestedCalls: {
        calls: [
          { id: "call_cm/1", name: "write", arguments: { path: "a.txt", content: "x" }, status: "ok", durationMs: 3 },
          { id: "call_cm/2", name: "read", argumentsBytes: 90000, status: "error", error: "ENOENT" },
        ],
        complete: false,
      },
      isError: false,
      timestamp: Date.now(),
    });
    sm.appendMessage(assistant([{ type: "toolCall", id: "call_ab", name: "ls", arguments: { path: "." } }], "toolUse"));
    sm.appendMessage({
      role: "toolResult",
      toolCallId: "call_ab",
      toolName: "ls",
      content: [{ type: "text", text: "Operation aborted" }],
      isError: true,
      timestamp: Date.now(),
    });
    sm.appendMessage(assistant([{ type: "text", text: "Stopped." }], "aborted"));
    sm.appendCompaction("Nothing kept.", null, 99);
    afterRetainNone = sm.appendMessage({ role: "user", content: "After a retain-none compaction.", timestamp: 2 });
  }, 90_000);

  it("the CLI's file: system messages, markers and a compaction with its system message", () => {
    const text = readFileSync(cliFile, "utf8");
    const session = loadSessionText(cliFile, text);
    expect(errors(session)).toEqual([]);
    expect(session.diagnostics.filter((d) => d.code === "W_UNKNOWN_TYPE")).toEqual([]);
    const entries = session.log.entries;
    expect(entries.some((e) => e.type === "message" && e.message.role === "system")).toBe(true);
    expect(entries.some((e) => e.type === "compaction" && e.systemMessage !== undefined)).toBe(true);
    const hostSide = hostEntries(text);
    expectSameContexts(session, hostSide, [...entries.map((e) => e.id)]);
    // The context after the compaction starts with the checkpoint, then the summary.
    const roles = buildHostContext(session.tree).messages.map((m) => m.role);
    expect(roles.slice(0, 2)).toEqual(["system", "compactionSummary"]);
  });

  it("the CLI's file: check reproduces every request the kit recorded (markers and the compaction included)", async () => {
    await expectCheckClean(readJsonLines(cliFile));
  });

  it("continued through SessionManager: context edits, usage, a second compaction, branches", () => {
    const text = readFileSync(extendedFile, "utf8");
    const session = loadSessionText(extendedFile, text);
    expect(errors(session)).toEqual([]);
    expect(session.diagnostics.filter((d) => d.code === "W_UNKNOWN_TYPE")).toEqual([]);
    const types = new Set(session.log.entries.map((e) => e.type));
    for (const t of ["usage", "context_edit", "compaction", "branch_summary", "custom_message"])
      expect(types).toContain(t);
    expect(session.tree.leaves().length).toBeGreaterThanOrEqual(2);
    const compared = expectSameContexts(session, hostEntries(text), [...session.log.entries.map((e) => e.id)]);
    expect(compared).toBe(session.log.entries.length + 2);
    // The 1.x parts are exercised: checkpoint first, the patch only inside it, edits applied.
    const context = buildHostContext(session.tree, afterSecond).messages;
    expect(context.map((m) => m.role).slice(0, 3)).toEqual(["system", "compactionSummary", "user"]);
    expect(context.filter((m) => m.role === "system")).toHaveLength(1);
    expect(JSON.stringify(context[0])).toContain("Prefer small diffs");
    expect(JSON.stringify(context)).not.toContain(OMITTED);
    expect(context[2]).toMatchObject({ content: "A replaced question." });
    expect(context.find((m) => m.role === "toolResult")).toMatchObject({
      content: [{ type: "text", text: "redacted" }],
    });
  });

  it("1.6 records: nested calls, an aborted call and a retain-none compaction, read as the host reads them", () => {
    const text = readFileSync(extendedFile, "utf8");
    const session = loadSessionText(extendedFile, text);
    expect(errors(session)).toEqual([]);
    const retainNone = session.log.entries.find((e) => e.type === "compaction" && e.firstKeptEntryId === e.id);
    expect(retainNone).toBeDefined();
    expectSameContexts(session, hostEntries(text), [afterRetainNone]);
    const roles = buildHostContext(session.tree, afterRetainNone).messages.map((m) => m.role);
    expect(roles).toEqual(["system", "compactionSummary", "user"]);
    const state = foldTree(session.tree).stateAt(afterRetainNone);
    expect(state.nested).toMatchObject({ calls: 2, failed: 1 });
    expect(state.nested.incompleteRecordIds).toHaveLength(1);
  });

  it("hand-damaged 1.x files: missing content reads as empty on 1.x branches", () => {
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    const lines: Record<string, unknown>[] = [
      { type: "session", version: 3, id: "damaged", timestamp: at(0), cwd: "/w" },
      { type: "model_change", id: "e1", parentId: null, timestamp: at(1), provider: "faux", modelId: "faux-1" },
      { type: "message", id: "e2", parentId: "e1", timestamp: at(2), message: { role: "system", timestamp: 2 } },
      {
        type: "message",
        id: "e3",
        parentId: "e2",
        timestamp: at(3),
        message: { role: "user", content: null, timestamp: 3 },
      },
      {
        type: "message",
        id: "e4",
        parentId: "e3",
        timestamp: at(4),
        message: { role: "assistant", provider: "faux", model: "faux-1", stopReason: "stop", timestamp: 4 },
      },
      { type: "custom_message", id: "e5", parentId: "e4", timestamp: at(5), customType: "x", display: false },
      {
        type: "message",
        id: "e6",
        parentId: "e5",
        timestamp: at(6),
        message: { role: "custom", customType: "y", timestamp: 6 },
      },
      {
        type: "context_edit",
        id: "e7",
        parentId: "e6",
        timestamp: at(7),
        targetId: "e4",
        replacement: { content: "edited" },
      },
      {
        type: "message",
        id: "e8",
        parentId: "e7",
        timestamp: at(8),
        message: { role: "toolResult", toolCallId: "c", timestamp: 8 },
      },
    ];
    const text = `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
    writeFileSync(join(scratch, "damaged.jsonl"), text);
    const session = loadSessionText("damaged", text);
    expect(errors(session).map((d) => d.code)).toContain("E_SCHEMA");
    expectSameContexts(session, hostEntries(text), ["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"]);
    const contents = buildHostContext(session.tree).messages.map((m) => (m as { content?: unknown }).content);
    expect(contents).toEqual(["", [], [{ type: "text", text: "edited" }], [], undefined, []]);
  });
});
