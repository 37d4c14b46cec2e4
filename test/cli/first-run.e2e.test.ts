/**
 * What a new user's first hour hit, on the built CLI in real processes: write errors, the view's numbers and labels,
 * the control paths, a missing file in a batch, counts that agree, recover's next step, and the wording.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CONTROL_DIRS, MARKER_NAME } from "../../src/policy/index.js";
import { SessionBuilder } from "../synth/session-builder.js";

const ROOT = join(import.meta.dirname, "../..");
const BIN = join(ROOT, "dist/src/cli/main.js");
const SAMPLES = join(ROOT, "evidence-samples");
const scratch = mkdtempSync(join(tmpdir(), "ck-first-run-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function kit(args: string[], env: NodeJS.ProcessEnv = {}): { code: number; stdout: string; stderr: string } {
  const out = spawnSync(process.execPath, [BIN, ...args], {
    cwd: scratch,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  return { code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr };
}

/** A sample copied into the scratch folder, idle (older than the in-use window). */
function sample(name: string, as = name): string {
  const path = join(scratch, as);
  copyFileSync(join(SAMPLES, name), path);
  const old = new Date(Date.now() - 3_600_000);
  utimesSync(path, old, old);
  return as;
}

function expectCleanError(out: { code: number; stderr: string }, code: string, text: string): void {
  expect(out.code).toBe(2);
  expect(out.stderr).toContain(`: ${code}: `);
  expect(out.stderr).toContain(text);
  expect(out.stderr).not.toMatch(/\n\s+at |node:internal|^Error:/m);
}

describe("1. a path that cannot be written: a clear error, exit 2", () => {
  writeFileSync(join(scratch, "a-file"), "x");
  const inputs = () => [sample("denials-session.jsonl"), sample("verification-session.jsonl")];

  it("report of a folder --out onto an existing file", () => {
    mkdirSync(join(scratch, "sessions"), { recursive: true });
    for (const name of inputs()) copyFileSync(join(scratch, name), join(scratch, "sessions", name));
    expectCleanError(kit(["report", "sessions", "--out", "a-file"]), "E_WRITE", "--out a-file: a file is in the way");
    expect(readFileSync(join(scratch, "a-file"), "utf8")).toBe("x");
  });

  it("report --out below a file, and into a place that cannot be written", () => {
    const [file] = inputs();
    expectCleanError(kit(["report", file as string, "--out", "a-file/page.html"]), "E_WRITE", "cannot mkdir");
    // A folder nobody may create files in: /proc even for root (a new folder below it would make mkdir spin).
    expectCleanError(
      kit(["report", file as string, "--out", "/proc/page.html"]),
      "E_WRITE",
      "cannot open /proc/page.html",
    );
    if (process.getuid?.() !== 0) {
      mkdirSync(join(scratch, "locked"));
      chmodSync(join(scratch, "locked"), 0o555);
      expectCleanError(kit(["report", file as string, "--out", "locked/page.html"]), "E_WRITE", "permission denied");
    }
    const json = kit(["report", file as string, "--out", "a-file/page.html", "--json"]);
    expect(JSON.parse(json.stdout).error.code).toBe("E_WRITE");
  });

  it("recover --backup-dir or --evidence onto a file leaves the session as it was", () => {
    const name = sample("stalled-school-session.jsonl", "stalled-1.jsonl");
    const before = readFileSync(join(scratch, name));
    expectCleanError(kit(["recover", name, "--backup-dir", "a-file"]), "E_WRITE", "--backup-dir: cannot mkdir");
    expectCleanError(kit(["recover", name, "--evidence", "a-file"]), "E_WRITE", "--evidence: cannot mkdir");
    expect(readFileSync(join(scratch, name))).toEqual(before);
    expect(readdirSync(scratch).filter((f) => f.startsWith("stalled-1.jsonl."))).toEqual([]);
  });
});

describe("2. view: what each token number is", () => {
  it("a view larger than the host's context says the kit adds to it, and claims no saving", () => {
    const out = kit(["view", sample("live-guidance-session.jsonl")]);
    expect(out.code).toBe(0);
    const { tokensEstimate: t } = JSON.parse(kit(["view", "live-guidance-session.jsonl", "--json"]).stdout);
    expect(t.view).toBeGreaterThan(t.full);
    expect(out.stdout).toContain(
      `tokens: ~${t.view} in this view, ~${t.full} in the host's own context (the kit adds ~${t.view - t.full}`,
    );
    expect(out.stdout).not.toMatch(/saves|of ~\d+ tokens/);
  });

  it("a recovery view smaller than the host's context shows the saving", () => {
    const out = kit(["view", sample("recovered-school-session.jsonl")]);
    const { tokensEstimate: t } = JSON.parse(kit(["view", "recovered-school-session.jsonl", "--json"]).stdout);
    expect(t.view).toBeLessThan(t.full);
    expect(out.stdout).toContain(`(saves ~${t.full - t.view})`);
  });
});

describe("3. policy lists every control path the policy enforces", () => {
  it("from the same constants and folders as the guarded tools", () => {
    const root = join(scratch, "project");
    const agentDir = join(root, "agent-home");
    mkdirSync(agentDir, { recursive: true });
    const out = kit(["policy", root, "--json"], { PI_CODING_AGENT_DIR: agentDir });
    expect(out.code).toBe(0);
    const paths = (JSON.parse(out.stdout).control as { path: string }[]).map((c) => c.path);
    for (const c of CONTROL_DIRS) expect(paths).toContain(`${c.name}/ (any depth)`);
    expect(paths).toContain(`${MARKER_NAME} files`);
    expect(paths).toContain(`${agentDir}/`);
    expect(paths.some((p) => p.endsWith("/") && ROOT.startsWith(p.slice(0, -1)))).toBe(true);
    const text = kit(["policy", root], { PI_CODING_AGENT_DIR: agentDir }).stdout;
    expect(text).toContain(".git/ (any depth)");
    expect(text).toContain(".agents/ (any depth)");
    expect(text).toContain(`${agentDir}/  — the host's agent directory`);
  });
});

describe("4. view on a branch cut from its root", () => {
  // The first tree holds a record that fails its schema; a bad JSON line cuts the active branch from the root.
  const b = new SessionBuilder({ seed: 4 });
  b.user("first question");
  const bad = b.assistant("an answer");
  const cutAt = b.user("second question");
  const orphanRoot = b.assistant("the reply after the lost line");
  b.user("third question");
  const leaf = b.assistant("the last reply");
  const lines = b.toJsonl().split("\n");
  const badLine = lines.findIndex((l) => l.includes(`"id":"${bad}"`));
  const lostLine = lines.findIndex((l) => l.includes(`"id":"${cutAt}"`));
  lines[badLine] = (lines[badLine] as string).replace('"content":[', '"content":7,"was":[');
  lines[lostLine] = `${(lines[lostLine] as string).slice(0, -2)}\\x"}`;
  writeFileSync(join(scratch, "cut.jsonl"), lines.join("\n"));

  it("says what the host does with the branch and lists the break, not another tree's records", () => {
    const inspect = kit(["inspect", "cut.jsonl"]).stdout;
    expect(inspect).toContain(`:${badLine + 1}: error E_SCHEMA`);
    expect(inspect).toContain(`:${lostLine + 1}: error E_JSON`);
    const out = kit(["view", "cut.jsonl"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(
      `leaf ${leaf}: 3 messages, orphaned: the host drops line ${lostLine + 1} (entry ${cutAt}, the parent of ${orphanRoot}), so the host sends this branch from entry ${orphanRoot} on and nothing before it`,
    );
    expect(out.stdout).not.toContain("as the host builds it");
    expect(out.stdout).toContain(`line ${lostLine + 1}: E_JSON`);
    expect(out.stdout).not.toContain("E_SCHEMA");
    const doc = JSON.parse(kit(["view", "cut.jsonl", "--json"]).stdout);
    expect(doc.cut).toEqual({ rootId: orphanRoot, missingParentId: cutAt, droppedLine: lostLine + 1 });
    expect(doc.invalidRecords).toBeUndefined();
  });

  it("the other tree's branch lists its own invalid record and exits 2", () => {
    const out = kit(["view", "cut.jsonl", "--leaf", bad]);
    expect(out.code).toBe(2);
    expect(out.stdout).toContain("as the host builds it");
    expect(out.stdout).toContain(`line ${badLine + 1}: E_SCHEMA`);
    expect(out.stdout).not.toContain("E_JSON");
  });
});

describe("5. one missing file does not abort a batch", () => {
  it.each(["inspect", "replay", "check"])("%s good.jsonl nope.jsonl: the good file still runs", (command) => {
    const good = sample("denials-session.jsonl");
    const text = kit([command, good, "nope.jsonl"]);
    expect(text.code).toBe(2);
    expect(text.stdout).toContain("denials-session.jsonl");
    expect(text.stdout).toContain("nope.jsonl: E_READ: no such file or folder");
    expect(text.stdout).toContain("2 files: 1 ok, 1 not readable");
    const json = JSON.parse(kit([command, good, "nope.jsonl", "--json"]).stdout);
    expect(Object.keys(json).sort()).toEqual(["files", "summary"]);
    expect(json.files[1]).toEqual({ file: "nope.jsonl", error: { code: "E_READ", message: expect.any(String) } });
    expect(json.summary).toEqual({ files: 2, outcomes: { ok: 1, "not readable": 1 } });
  });
});

describe("6. exit codes and counts agree", () => {
  it("check names reader errors apart from violations, as the JSON does", () => {
    const text = kit(["check", "cut.jsonl"]);
    const doc = JSON.parse(kit(["check", "cut.jsonl", "--json"]).stdout).files[0];
    expect(doc.violations).toEqual([]);
    expect(doc.readerErrors.length).toBeGreaterThan(0);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      new RegExp(`^cut\\.jsonl: \\d+ branch(es)?, ${doc.readerErrors.length} reader errors?\\n`),
    );
    expect(text.stdout).not.toMatch(/violation/);
  });

  it("replay counts the files with reader errors as inspect does", () => {
    const good = sample("denials-session.jsonl");
    const inspect = kit(["inspect", good, "cut.jsonl"]).stdout.trim().split("\n").at(-1);
    const replay = kit(["replay", good, "cut.jsonl"]);
    expect(inspect).toBe("2 files: 1 ok, 1 with errors");
    expect(replay.stdout.trim().split("\n").at(-1)).toBe(inspect);
    expect(replay.stdout).toMatch(/cut\.jsonl: 2 branches, active leaf \w+, \d+ reader errors? \(inspect lists them\)/);
    expect(JSON.parse(kit(["replay", "cut.jsonl", "--json"]).stdout).files[0].readerErrors).toBeGreaterThan(0);
  });

  it("recover: already recovered exits 0 and says so; not stalled exits 1 and says so", () => {
    const recovered = kit(["recover", sample("recovered-school-session.jsonl"), "--json"]);
    expect(recovered.code).toBe(0);
    expect(JSON.parse(recovered.stdout)).toMatchObject({ outcome: "already-recovered", recovered: false });
    const calm = kit(["recover", sample("verification-session.jsonl")]);
    expect(calm.code).toBe(1);
    expect(calm.stdout).toMatch(/^verification-session\.jsonl: nothing to recover \(not stalled: /);
    expect(kit(["recover", "--help"]).stdout.replace(/\s+/g, " ")).toContain(
      "Exit 0 when a marker is appended, would be (--dry-run) or already ends the branch; 1 when the session is not stalled",
    );
  });
});

describe("7. recover names the command that uses the recovery view", () => {
  it("pi-context, not plain pi; a dry run says what it would append and where", () => {
    const name = sample("stalled-school-session.jsonl", "stalled-7.jsonl");
    const dry = kit(["recover", name, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(
      /^stalled-7\.jsonl: dry run, nothing written\. Would append a context-kit\/recovery-marker\/v1 entry after entry [0-9a-f]{8} to stalled-7\.jsonl, writing the backup to \S+\/stalled-7\.jsonl\.[-0-9TZ]+\.bak first\./,
    );
    const real = kit(["recover", name]);
    expect(real.code).toBe(0);
    expect(real.stdout).toContain("Next: pi-context --session stalled-7.jsonl (or pi with the kit installed)");
    expect(real.stdout).not.toContain("Next: pi --session");
  });
});

describe("9. wording", () => {
  it("no '1 records', and a stall stop is said what it is", () => {
    writeFileSync(
      join(scratch, "headerless.jsonl"),
      `${JSON.stringify({ type: "message", id: "a", parentId: null })}\n`,
    );
    const out = kit(["inspect", "headerless.jsonl"]);
    expect(out.stdout + out.stderr).not.toMatch(/\ball 1 records\b|\b1 records\b/);
    const report = kit(["report", sample("denials-session.jsonl"), "--out", "denials.html"]);
    expect(report.stdout).toMatch(
      /0 stall stops \(runs the kit stopped when a reply after a recovery again only announced an action\)/,
    );
  });

  it("every help example's --leaf id exists in the sample it names", () => {
    for (const command of ["view", "replay", "detect"]) {
      const help = kit([command, "--help"]).stdout;
      for (const m of help.matchAll(/context-kit \w+ (\S+\.jsonl) --leaf ([0-9a-f]+)/g)) {
        const ids = JSON.parse(kit(["inspect", join(ROOT, m[1] as string), "--json"]).stdout).files[0];
        expect(JSON.stringify(ids), `${command}: ${m[0]}`).toContain(m[2] as string);
      }
      expect(help, command).not.toMatch(/context-kit \w+ session\.jsonl --leaf/);
    }
  });

  it("detect --explain gives in text the reason for each reply's label that --json gives", () => {
    const file = sample("stalled-school-session.jsonl");
    const text = kit(["detect", file, "--explain"]).stdout;
    const steps = JSON.parse(kit(["detect", file, "--explain", "--json"]).stdout).explain as {
      entryId: string | null;
      reason: string;
    }[];
    const replies = steps.filter((s) => s.entryId !== null && s.reason);
    expect(replies.length).toBeGreaterThanOrEqual(3);
    for (const step of replies) expect(text).toContain(`why: ${step.reason}`);
  });
});
