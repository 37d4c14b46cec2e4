import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { KIT, RECOVERED_PREFIX } from "../../reducers/contract/kit-entries.js";
import { IDLE_SECONDS } from "../../src/cli/file-in-use.js";
import { runCli } from "../../src/cli/run.js";
import { kitRecordOf } from "../../src/fold/kit-records.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { recoveryMarker, stallStop } from "../../src/kit/host-messages.js";
import type { SessionEntry } from "../../src/log/entry-types.js";
import { kitVersion } from "../../src/package-root.js";
import { loadSession } from "../../src/session.js";
import { SCHOOL_RECORDS } from "../synth/school-session.js";
import { SessionBuilder } from "../synth/session-builder.js";

const SAMPLES = join(import.meta.dirname, "../../evidence-samples");
const STALLED = "stalled-school-session.jsonl";
const root = mkdtempSync(join(tmpdir(), "ck-recover-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dir: string;
let counter = 0;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = join(root, `case-${++counter}`);
  mkdirSync(dir);
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** A copy of an evidence sample, last modified a minute ago (so it counts as idle without sleeping). */
function copySample(name = STALLED, age = 60): string {
  const file = join(dir, name);
  copyFileSync(join(SAMPLES, name), file);
  if (age > 0) {
    const then = new Date(Date.now() - age * 1000);
    utimesSync(file, then, then);
  }
  return file;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const listing = () => readdirSync(dir).sort();
const recover = (args: string[]) => runCli(["recover", ...args], { cwd: dir });

async function recoverJson(args: string[]) {
  const out = await recover([...args, "--json"]);
  return { ...out, doc: JSON.parse(out.stdout) };
}

/** A child process that holds `file` open (for appending by default); the path goes through the environment. */
async function holdOpen(file: string, flags = "a"): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      "-e",
      "const fd = require('node:fs').openSync(process.env.HELD, process.env.FLAGS); console.log('ready ' + fd); setInterval(() => {}, 1000);",
    ],
    { env: { ...process.env, HELD: file, FLAGS: flags }, stdio: ["ignore", "pipe", "inherit"] },
  );
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().startsWith("ready")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`holder exited early (${code})`)));
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

describe("recover refuses", () => {
  it("a session that is not stalled: nothing appended, exit 1", async () => {
    const file = copySample("verification-session.jsonl");
    const before = readFileSync(file);
    const { exitCode, doc, stderr } = await recoverJson(["verification-session.jsonl"]);
    expect(stderr).toBe("");
    expect(exitCode).toBe(1);
    expect(doc).toMatchObject({ recovered: false, markerEntryId: null, backup: null, prefix: null, evidence: null });
    expect(doc.reason).toMatch(/^not stalled/);
    expect(readFileSync(file)).toEqual(before);
    expect(listing()).toEqual(["verification-session.jsonl"]);
    const text = await recover(["verification-session.jsonl"]);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toMatch(/nothing to recover \(not stalled/);
    expect(doc.outcome).toBe("not-stalled");
  });

  it(`a file that changed within the last ${IDLE_SECONDS} s: exit 2, E_IN_USE, unless --force`, async () => {
    const file = copySample(STALLED, 1);
    const before = readFileSync(file);
    const out = await recover([STALLED, "--json"]);
    expect(out.exitCode).toBe(2);
    expect(JSON.parse(out.stdout).error.code).toBe("E_IN_USE");
    expect(out.stderr).toMatch(/E_IN_USE: .*changed .* s ago.*--force/);
    expect(readFileSync(file)).toEqual(before);
    expect(listing()).toEqual([STALLED]);

    const forced = await recoverJson([STALLED, "--force"]);
    expect(forced.exitCode).toBe(0);
    expect(forced.doc.recovered).toBe(true);
  });

  it("while another process holds the file open for writing, then proceeds once it closed", async () => {
    const file = copySample();
    const before = readFileSync(file);
    const holder = await holdOpen(file);
    const out = await recover([STALLED]);
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toContain(
      `E_IN_USE: ${STALLED}: the session may be in use (process ${holder.pid} holds it open for writing)`,
    );
    expect(readFileSync(file)).toEqual(before);
    expect(listing()).toEqual([STALLED]);
    await stop(holder);
    expect((await recover([STALLED])).exitCode).toBe(0);
  });

  it("while the holder opened it through another spelling of the path (a symlinked folder)", async () => {
    const real = copySample();
    symlinkSync(dir, join(root, `link-${counter}`));
    await holdOpen(real);
    const viaLink = join(root, `link-${counter}`, STALLED);
    const out = await runCli(["recover", viaLink], { cwd: root });
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toMatch(/E_IN_USE: .*holds it open/);
  });

  it.each([
    ["an absolute", (file: string) => file],
    ["a relative", () => `./${STALLED}`],
  ])("while a Pi process was started with the file on its command line (%s path)", async (_, spell) => {
    const file = copySample();
    const bin = join(dir, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "pi"), "setInterval(() => {}, 1000);\n");
    const child = spawn(process.execPath, [join(bin, "pi"), "--session", spell(file)], { cwd: dir, stdio: "ignore" });
    children.push(child);
    await new Promise((resolve) => child.once("spawn", resolve));
    const out = await recover([STALLED]);
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toContain(`(Pi process ${child.pid} was started with it)`);
    await stop(child);
    expect((await recover([STALLED])).exitCode).toBe(0);
  });

  it("a file with a damaged header or a truncated last line: exit 2, nothing written", async () => {
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, '{"type":"message"}\n');
    const badOut = await recover(["bad.jsonl"]);
    expect(badOut.exitCode).toBe(2);
    expect(badOut.stderr).toMatch(/E_NO_HEADER: bad\.jsonl:1: not a Pi session file \(/);
    const file = copySample();
    const text = readFileSync(file, "utf8");
    writeFileSync(file, `${text}{"type":"message","id":"tr`);
    utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const truncated = readFileSync(file);
    const out = await recover([STALLED, "--force"]);
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toMatch(/E_TRUNCATED_TAIL: .*:98: the last line is truncated/);
    expect(readFileSync(file)).toEqual(truncated);
    expect(listing()).toEqual(["bad.jsonl", STALLED]);
  });
});

describe("recover on a stalled, idle session", () => {
  it("backs up, appends exactly one valid marker, proves the prefix and writes summary.json", async () => {
    const file = copySample();
    const original = readFileSync(file);
    const stalledLeaf = loadSession(file).tree.activeLeafId as string;
    const detect = JSON.parse((await runCli(["detect", STALLED, "--json"], { cwd: dir })).stdout);

    const { exitCode, doc, stderr } = await recoverJson([STALLED, "--backup-dir", "backups", "--evidence", "evidence"]);
    expect(stderr).toBe("");
    expect(exitCode).toBe(0);
    expect(Object.keys(doc).sort()).toEqual(
      ["backup", "evidence", "file", "markerEntryId", "outcome", "plan", "prefix", "reason", "recovered"].sort(),
    );
    expect(doc.recovered).toBe(true);
    expect(doc.file).toBe(STALLED);

    // backup: byte-identical to the original
    expect(doc.backup.startsWith(join(dir, "backups"))).toBe(true);
    expect(readFileSync(doc.backup)).toEqual(original);

    // prefix proof: the original bytes are unchanged and hash as before
    expect(doc.prefix).toEqual({ bytes: original.length, sha256: sha256(original) });
    const after = readFileSync(file);
    expect(after.subarray(0, original.length)).toEqual(original);
    expect(sha256(after.subarray(0, doc.prefix.bytes))).toBe(doc.prefix.sha256);

    // exactly one whole line appended: a marker that validates and that the fold takes as the anchor
    const added = after.subarray(original.length).toString("utf8");
    expect(added.endsWith("\n")).toBe(true);
    expect(added.slice(0, -1)).not.toContain("\n");
    const entry = JSON.parse(added) as SessionEntry;
    expect(entry).toMatchObject({
      type: "custom_message",
      customType: KIT.recoveryMarker,
      display: true,
      id: doc.markerEntryId,
      parentId: stalledLeaf,
    });
    expect(entry.type === "custom_message" && String(entry.content).startsWith(RECOVERED_PREFIX)).toBe(true);
    expect(kitRecordOf(entry)).toMatchObject({
      type: "recoveryMarker",
      details: { requestId: detect.requestId, promiseEntryIds: detect.promiseEntryIds },
    });
    const { tree, diagnostics } = loadSession(file);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(tree.activeLeafId).toBe(doc.markerEntryId);
    expect(foldTree(tree).stateAt(tree.activeLeafId).recovery.anchorId).toBe(doc.markerEntryId);

    // the evidence
    expect(doc.evidence).toBe(join(dir, "evidence", "summary.json"));
    const summary = JSON.parse(readFileSync(doc.evidence, "utf8"));
    expect(summary).toMatchObject({
      sessionId: "01a16ecb-97a2-771e-b335-b7aca163bc36",
      recordsBefore: SCHOOL_RECORDS,
      recordsAfter: SCHOOL_RECORDS + 1,
      prefix: doc.prefix,
      markerEntryId: doc.markerEntryId,
      promiseEntryIds: detect.promiseEntryIds,
      backup: doc.backup,
      kitVersion: kitVersion(),
    });
    expect(original.toString("utf8").trimEnd().split("\n")).toHaveLength(summary.recordsBefore);
    expect(after.toString("utf8").trimEnd().split("\n")).toHaveLength(summary.recordsAfter);

    // the next run sees the recovery view and no stall
    const view = JSON.parse((await runCli(["view", STALLED, "--json"], { cwd: dir })).stdout);
    expect(view.anchorId).toBe(doc.markerEntryId);
    expect(view.omitted.assistant).toBeGreaterThan(0);
    const again = JSON.parse((await runCli(["detect", STALLED, "--json"], { cwd: dir })).stdout);
    expect(again.stalled).toBe(false);
  });

  it("keeps the backup beside the session by default and says what it did", async () => {
    copySample();
    const out = await recover([STALLED]);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toMatch(
      /^stalled-school-session\.jsonl: recovered\. Marker [0-9a-f]{8} appended; original \d+ bytes unchanged \(sha256 [0-9a-f]{64}\); backup /,
    );
    expect(out.stdout).toContain(
      "Next: pi-context --session stalled-school-session.jsonl (or pi with the kit installed)",
    );
    expect(out.stdout).not.toMatch(/Next: pi --session/);
    const backups = listing().filter((n) => n.endsWith(".bak"));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dir, backups[0] as string))).toEqual(readFileSync(join(SAMPLES, STALLED)));
  });

  it("--dry-run writes nothing", async () => {
    const file = copySample();
    const before = readFileSync(file);
    const mtime = statSync(file).mtimeMs;
    const { exitCode, doc } = await recoverJson([STALLED, "--dry-run", "--evidence", "evidence", "--backup-dir", "b"]);
    expect(exitCode).toBe(0);
    expect(doc).toMatchObject({ recovered: false, markerEntryId: null, backup: null, prefix: null, evidence: null });
    expect(doc.outcome).toBe("would-recover");
    expect(doc.plan).toMatchObject({ customType: "context-kit/recovery-marker/v1", parentId: expect.any(String) });
    expect(doc.plan.backup).toMatch(/\/b\/stalled-school-session\.jsonl\.[-0-9TZ]+\.bak$/);
    const text = await recover([STALLED, "--dry-run", "--backup-dir", "b"]);
    expect(text.stdout).toContain(
      `Would append a context-kit/recovery-marker/v1 entry after entry ${doc.plan.parentId}`,
    );
    expect(text.stdout).toMatch(
      /, writing the backup to \/\S+\/b\/stalled-school-session\.jsonl\.[-0-9TZ]+\.bak first\. Why: /,
    );
    expect(readFileSync(file)).toEqual(before);
    expect(statSync(file).mtimeMs).toBe(mtime);
    expect(listing()).toEqual([STALLED]);
  });

  it("a session that ended in STALLED_NO_TOOL_PROGRESS after a recovery is recovered once, then no more", async () => {
    const b = new SessionBuilder({ sessionId: "stopped-0001" });
    b.user("Describe the business scenarios.");
    for (let i = 0; i < 3; i++) {
      b.assistant("Let me check the compiler errors first.");
      b.user("Please continue.");
    }
    const m = recoveryMarker({ requestId: null, promiseEntryIds: [], reason: "automatic" });
    b.customMessage(m.customType, m.content, m.details);
    b.assistant("Let me check the compiler errors first.");
    const s = stallStop({ requestId: null, promiseEntryIds: [], anchorId: null });
    b.customMessage(s.customType, s.content, s.details);
    const file = join(dir, "stopped.jsonl");
    writeFileSync(file, b.toJsonl());
    const age = () => utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    age();
    const detect = JSON.parse((await runCli(["detect", "stopped.jsonl", "--json"], { cwd: dir })).stdout);
    expect(detect.reason).toMatch(/^STALLED_NO_TOOL_PROGRESS/);
    const first = await recoverJson(["stopped.jsonl"]);
    expect(first.doc.recovered).toBe(true);
    const once = readFileSync(file);
    age();
    const second = await recoverJson(["stopped.jsonl"]);
    expect(second.exitCode).toBe(0);
    expect(second.doc.recovered).toBe(false);
    expect(readFileSync(file)).toEqual(once);
    const after = JSON.parse((await runCli(["detect", "stopped.jsonl", "--json"], { cwd: dir })).stdout);
    expect(after.stalled).toBe(false);
  });

  it("running it twice appends nothing the second time", async () => {
    const file = copySample();
    const first = await recoverJson([STALLED]);
    expect(first.doc.recovered).toBe(true);
    const once = readFileSync(file);
    const files = listing();
    for (const extra of [[], ["--force"]]) {
      const second = await recoverJson([STALLED, ...extra]);
      expect(second.exitCode).toBe(0);
      expect(second.doc.recovered).toBe(false);
      expect(second.doc.reason).toBe(`already recovered: the active leaf is marker ${first.doc.markerEntryId}`);
      expect(readFileSync(file)).toEqual(once);
      expect(listing()).toEqual(files);
    }
  });
});
