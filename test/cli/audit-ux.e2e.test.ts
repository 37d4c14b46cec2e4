import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeLargeSession } from "../synth/large-session.js";
import { SessionBuilder } from "../synth/session-builder.js";

const ROOT = join(import.meta.dirname, "../..");
const BIN = join(ROOT, "dist/src/cli/main.js");
const SAMPLES = join(ROOT, "evidence-samples");
const STALLED = "stalled-school-session.jsonl";
const scratch = mkdtempSync(join(tmpdir(), "ck-ux-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The built bin in a real process, as a user runs it (test/global-setup.ts rebuilds dist/ when sources changed). */
function kit(args: string[], cwd = scratch): { code: number; stdout: string; stderr: string } {
  const out = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8", maxBuffer: 64 << 20 });
  return { code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr };
}

function write(name: string, text: string): string {
  const path = join(scratch, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

function session(build: (b: SessionBuilder) => void): string {
  const b = new SessionBuilder();
  build(b);
  return b.toJsonl();
}

const good = () =>
  session((b) => {
    b.user("hello");
    b.assistant("hi");
  });

describe("a closed stdout", () => {
  it("ends view and view --json quietly with the command's exit code (| head)", () => {
    writeLargeSession(join(scratch, "big.jsonl"), { entries: 3000, leaves: 2 });
    for (const [args, head] of [
      ["view big.jsonl", "head -1"],
      ["view --json big.jsonl", "head -c 100"],
      ["inspect big.jsonl --ndjson", "head -c 10"],
    ]) {
      const out = spawnSync(
        "bash",
        ["-c", `"${process.execPath}" "${BIN}" ${args} 2>err.txt | ${head} >/dev/null; echo "\${PIPESTATUS[0]}"`],
        { cwd: scratch, encoding: "utf8" },
      );
      expect(readFileSync(join(scratch, "err.txt"), "utf8"), args).toBe("");
      expect(out.stdout.trim(), args).toBe("0");
    }
  });

  it("keeps exit 2 when a streamed view --json of a branch with an invalid record is cut short", () => {
    const info = writeLargeSession(join(scratch, "invalid.jsonl"), { entries: 3000 });
    const bad = { type: "message", id: "bad1", parentId: info.activeLeafId, timestamp: "2026-01-01T00:00:00Z" };
    appendFileSync(info.file, `${JSON.stringify({ ...bad, message: { role: "user", content: 5 } })}\n`);
    const out = spawnSync(
      "bash",
      [
        "-c",
        `"${process.execPath}" "${BIN}" view --json invalid.jsonl 2>err.txt | head -c 100 >/dev/null; echo "\${PIPESTATUS[0]}"`,
      ],
      { cwd: scratch, encoding: "utf8" },
    );
    expect(readFileSync(join(scratch, "err.txt"), "utf8")).toBe("");
    expect(out.stdout.trim()).toBe("2");
  });
});

describe("folders", () => {
  it("an empty folder is refused by inspect, replay, check and report alike", () => {
    mkdirSync(join(scratch, "empty"), { recursive: true });
    for (const command of ["inspect", "replay", "check"]) {
      const out = kit([command, "empty"]);
      expect(out.code, command).toBe(2);
      expect(out.stderr).toBe(`context-kit ${command}: E_NO_SESSIONS: empty: no session files (*.jsonl) below it\n`);
    }
    const report = kit(["report", "empty", "--out", "out"]);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain("E_NO_SESSIONS: empty: no session files");
  });

  it("one unreadable and one non-session file are reported with their errors; the others still run; exit 2", () => {
    write("mixed/a.jsonl", good());
    write("mixed/b-notes.jsonl", "just notes\n");
    symlinkSync(join(scratch, "nowhere.jsonl"), join(scratch, "mixed", "c-gone.jsonl"));
    write("mixed/d.jsonl", good());
    for (const command of ["inspect", "check", "replay"]) {
      const out = kit([command, "mixed", "--json"]);
      expect(out.code, command).toBe(2);
      const doc = JSON.parse(out.stdout);
      expect(doc.files.map((f: { file: string }) => f.file)).toEqual([
        "mixed/a.jsonl",
        "mixed/b-notes.jsonl",
        "mixed/c-gone.jsonl",
        "mixed/d.jsonl",
      ]);
      expect(doc.files[2]).toEqual({
        file: "mixed/c-gone.jsonl",
        error: { code: "E_READ", message: "mixed/c-gone.jsonl: no such file or folder" },
      });
      expect(doc.files[0].file).toBe("mixed/a.jsonl");
      expect(doc.files[0]).not.toHaveProperty("error");
      expect(doc.files[3]).not.toHaveProperty("error");
      expect(out.stderr).toContain(`context-kit ${command}: E_READ: mixed/c-gone.jsonl: no such file or folder\n`);
      expect(out.stderr).toMatch(/E_BAD_HEADER: mixed\/b-notes\.jsonl(:1)?: not a Pi session file/);
      const text = kit([command, "mixed"]);
      expect(text.code).toBe(2);
      expect(text.stdout.trimEnd().split("\n").at(-1)).toMatch(/^4 files: 2 ok, 1 not a session file, 1 not readable$/);
    }
  });

  it("--ndjson prints one line per file, each the object --json lists, so shards can be merged", () => {
    write("shard/x.jsonl", good());
    write(
      "shard/y.jsonl",
      session((b) => {
        b.user("a");
        b.assistant("b");
        b.user("c");
      }),
    );
    for (const command of ["inspect", "check", "replay"]) {
      const lines = kit([command, "shard", "--ndjson"]).stdout.trimEnd().split("\n");
      expect(lines).toHaveLength(2);
      const whole = JSON.parse(kit([command, "shard", "--json"]).stdout);
      expect(lines.map((line) => JSON.parse(line))).toEqual(whole.files);
    }
    const both = kit(["inspect", "shard", "--json", "--ndjson"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("E_USAGE: --json and --ndjson exclude each other");
  });

  it("one JSON shape whatever the number of files, paths echoed as given, and a summary line", () => {
    write("one.jsonl", good());
    const single = JSON.parse(kit(["inspect", "./one.jsonl", "--json"]).stdout);
    const many = JSON.parse(kit(["inspect", "./one.jsonl", "shard", "--json"]).stdout);
    expect(Object.keys(single)).toEqual(["files", "summary"]);
    expect(Object.keys(many)).toEqual(["files", "summary"]);
    expect(single.files[0].file).toBe("./one.jsonl");
    expect(many.files.map((f: { file: string }) => f.file)).toEqual(["./one.jsonl", "shard/x.jsonl", "shard/y.jsonl"]);
    const text = kit(["inspect", `${scratch}/one.jsonl`, "shard"]).stdout;
    expect(text.split("\n")[0]).toBe(`${scratch}/one.jsonl`);
    expect(text.trimEnd().split("\n").at(-1)).toBe("3 files: 3 ok");
    expect(kit(["inspect", "one.jsonl"]).stdout).not.toContain("files:");
  });

  it("diagnostics are capped per file with a count of the rest; counts are in good English", () => {
    const lines = session((b) => {
      for (let i = 0; i < 30; i++) b.user(`message ${i}`);
    }).split("\n");
    for (let i = 2; i < 27; i++) lines[i] = `{broken ${i}`;
    write("noisy.jsonl", lines.join("\n"));
    const out = kit(["inspect", "noisy.jsonl"]);
    expect(out.stdout.match(/noisy\.jsonl:\d+: error E_JSON/g)).toHaveLength(20);
    expect(out.stdout).toMatch(/… \d+ more diagnostics \(--json lists all\)/);
    const all = JSON.parse(kit(["inspect", "noisy.jsonl", "--json"]).stdout).files[0].diagnostics;
    expect(all.length).toBeGreaterThan(20);
    write(
      "tiny.jsonl",
      session((b) => b.user("only")),
    );
    expect(kit(["inspect", "tiny.jsonl"]).stdout).toContain("  1 entry: message:user 1");
    expect(kit(["check", "tiny.jsonl"]).stdout).toBe("tiny.jsonl: 1 branch, ok\n");
    expect(kit(["replay", "tiny.jsonl"]).stdout).toMatch(/^tiny\.jsonl: 1 branch, active leaf/);
  });
});

describe("every command says why a file is unusable", () => {
  it("detect, view and replay name the code and the reason, in text and in JSON", () => {
    write("notes.jsonl", "just some notes\nabout things\n");
    for (const command of ["detect", "view", "replay"]) {
      const text = kit([command, "notes.jsonl"]);
      expect(text.code, command).toBe(2);
      expect(text.stdout).not.toMatch(/not stalled|leaf -/);
      expect(text.stderr + text.stdout).toMatch(/E_BAD_HEADER: notes\.jsonl(:1)?: not a Pi session file \(.+\)/);
      const json = JSON.parse(kit([command, "notes.jsonl", "--json"]).stdout);
      const error = json.error ?? json.files[0].error;
      expect(error.code).toBe("E_BAD_HEADER");
      expect(error.message).toMatch(/not a Pi session file/);
    }
  });

  it("recover and report say why too", () => {
    write("notes.jsonl", "just some notes\nabout things\n");
    const recover = kit(["recover", "notes.jsonl", "--dry-run", "--json"]);
    expect(recover.code).toBe(2);
    expect(JSON.parse(recover.stdout).error).toEqual({
      code: "E_BAD_HEADER",
      message: expect.stringMatching(/^notes\.jsonl:1: not a Pi session file \(.+\)$/),
    });
    const report = kit(["report", "notes.jsonl", "--out", "notes.html", "--json"]);
    expect(report.code).toBe(2);
    expect(JSON.parse(report.stdout).pages[0].error.code).toBe("E_BAD_HEADER");
    expect(report.stderr).toMatch(/^context-kit report: E_BAD_HEADER: notes\.jsonl:1: not a Pi session file \(/);
  });

  it("check counts an error diagnostic that changes what the model sees as a violation", () => {
    const lines = session((b) => {
      b.user("one");
      b.assistant("two");
      b.user("three");
      b.assistant("four");
    }).split("\n");
    lines[2] = `${lines[2]?.slice(0, 20)}`;
    write("dropped.jsonl", lines.join("\n"));
    const out = kit(["check", "dropped.jsonl"]);
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(
      /^dropped\.jsonl: 2 branches, (\d+ violations?, )?\d+ reader errors?\n {2}line 3: E_JSON: /,
    );
    expect(kit(["check", "--help"]).stdout).toContain("Error diagnostics fail the check too");
  });

  it("view shows a provider error instead of a blank assistant row", () => {
    write(
      "rate-limited.jsonl",
      session((b) => {
        b.user("please continue");
        b.message({
          role: "assistant",
          content: [],
          api: "anthropic-messages",
          provider: "anthropic",
          model: "claude",
          usage: {
            input: 0,
            output: 0,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 0,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          },
          stopReason: "error",
          errorMessage: "429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit",
          timestamp: 1,
        } as never);
      }),
    );
    const out = kit(["view", "rate-limited.jsonl"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/assistant +\[error: 429 rate_limit_error: Number of request tokens/);
  });
});

describe("usage mistakes", () => {
  it("an unknown command or option gets a short message with a suggestion, not the whole help", () => {
    const command = kit(["inspct", "x.jsonl"]);
    expect(command.code).toBe(2);
    expect(command.stderr).toBe(
      'context-kit: E_USAGE: unknown command "inspct" (did you mean inspect?); commands: inspect, replay, view, check, detect, recover, report, policy, index, export, stats\nRun `context-kit --help` for the commands.\n',
    );
    const option = kit(["detect", `${SAMPLES}/${STALLED}`, "--fail-on-stal"]);
    expect(option.code).toBe(2);
    expect(option.stderr).toBe(
      "context-kit: E_USAGE: unknown option --fail-on-stal for detect (did you mean --fail-on-stall?)\nUsage: context-kit detect FILE|DIR... [--leaf ID] [--explain] [--fail-on-stall] [--json | --ndjson]\nRun `context-kit detect --help` for the options.\n",
    );
    expect(kit(["view", `${SAMPLES}/${STALLED}`, "--leaf"]).stderr).toContain("E_USAGE: --leaf needs a value");
  });

  it("file errors say what is wrong in words", () => {
    expect(kit(["view", "nope.jsonl"]).stderr).toBe("context-kit view: E_READ: nope.jsonl: no such file or folder\n");
    expect(kit(["detect", "shard", "--leaf", "x"]).stderr).toContain(
      "E_USAGE: --leaf and --explain need exactly one session file",
    );
  });

  it("--leaf takes a unique prefix of an id", () => {
    const text = readFileSync(join(SAMPLES, STALLED), "utf8").replaceAll("0000705f", "7a9b0c1d");
    write("renamed.jsonl", text);
    const out = JSON.parse(kit(["detect", "renamed.jsonl", "--leaf", "7a9b", "--json"]).stdout);
    expect(out.leafId).toBe("7a9b0c1d");
    expect(out.stalled).toBe(true);
  });
});
