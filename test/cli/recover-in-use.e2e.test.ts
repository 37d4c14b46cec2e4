/**
 * `recover` against real processes: a live interactive `pi-context -c` that never names the file (the kit's lease),
 * a plain Pi in the session's directory, wrappers and readers that only name or read the file (not in use), and
 * `--dry-run`, which never refuses.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { leasePath } from "../../src/log/session-lease.js";
import { type CliSandbox, cleanupCliSandboxes, createCliSandbox, PI_CLI_JS, sandboxEnv } from "../helpers/faux-cli.js";

const BIN = join(import.meta.dirname, "../../dist/src/cli/main.js");
const ENTRY = join(import.meta.dirname, "../helpers/pi-context-faux.mjs");
const FAUX_EXT = join(import.meta.dirname, "../helpers/faux-cli-ext.ts");
const STALLED = join(import.meta.dirname, "../../evidence-samples/stalled-school-session.jsonl");
const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
const TMUX = `ck-recover-${process.pid}`;
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  spawnSync("tmux", ["kill-session", "-t", TMUX]);
});
afterAll(() => cleanupCliSandboxes());

/** The stalled sample as the newest session of the sandbox's directory, idle for a minute. */
function stalledSession(sandbox: CliSandbox): string {
  const dir = join(sandbox.agentDir, "sessions", `--${sandbox.cwd.replace(/^\//, "").replace(/[/\\:]/g, "-")}--`);
  mkdirSync(dir, { recursive: true });
  // The interactive footer sums every assistant message's usage; the synthetic sample has none.
  const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
  const usage = { ...zero, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const lines = readFileSync(STALLED, "utf8")
    .split("\n")
    .map((line) => {
      if (!line.includes('"role":"assistant"')) return line;
      const entry = JSON.parse(line);
      entry.message.usage ??= usage;
      return JSON.stringify(entry);
    });
  lines[0] = JSON.stringify({ ...JSON.parse(lines[0] as string), cwd: sandbox.cwd });
  const file = join(dir, "stalled.jsonl");
  writeFileSync(file, lines.join("\n"));
  const then = new Date(Date.now() - 60_000);
  utimesSync(file, then, then);
  return file;
}

function recover(args: string[], wrapper: string[] = []) {
  const [command, ...rest] = [...wrapper, process.execPath, BIN, "recover", ...args];
  const run = spawnSync(command as string, rest, { encoding: "utf8", timeout: 60_000 });
  return { exitCode: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("recover decides 'in use' by what holds the session, not by who names it", () => {
  it("runs under wrappers whose command lines name the file (timeout, time, a shell)", () => {
    for (const wrapper of [
      ["timeout", "60"],
      ["/usr/bin/time", "-o", "/dev/null"],
      ["sh", "-c", '"$0" "$@"'],
    ]) {
      const sandbox = createCliSandbox();
      const file = stalledSession(sandbox);
      const dry = recover([file, "--dry-run", "--json"], wrapper);
      expect(dry.exitCode, `${wrapper[0]} --dry-run: ${dry.stderr}`).toBe(0);
      expect(JSON.parse(dry.stdout).outcome).toBe("would-recover");
      const real = recover([file, "--json"], wrapper);
      expect(real.exitCode, `${wrapper[0]}: ${real.stderr}`).toBe(0);
      expect(JSON.parse(real.stdout).recovered).toBe(true);
    }
  });

  it("runs while another process only reads the file, refuses while one holds it open for appending", async () => {
    for (const [flags, expected] of [
      ["r", 0],
      ["a", 2],
    ] as const) {
      const file = stalledSession(createCliSandbox());
      const holder = spawn(
        process.execPath,
        [
          "-e",
          "require('node:fs').openSync(process.env.HELD, process.env.FLAGS); console.log('ready'); setInterval(() => {}, 1000);",
        ],
        { env: { ...process.env, HELD: file, FLAGS: flags }, stdio: ["ignore", "pipe", "inherit"] },
      );
      children.push(holder);
      await new Promise((resolve) => holder.stdout?.once("data", resolve));
      const out = recover([file, "--dry-run"]);
      expect(out.exitCode).toBe(0);
      const real = recover([file]);
      expect(real.exitCode, real.stderr).toBe(expected);
      if (expected === 2) expect(real.stderr).toContain(`process ${holder.pid} holds it open for writing`);
      holder.kill("SIGKILL");
    }
  });

  it.skipIf(!hasTmux)(
    "refuses while an idle interactive pi-context -c has the session open (the kit's lease), and runs after it quit",
    async () => {
      const sandbox = createCliSandbox();
      const file = stalledSession(sandbox);
      const before = readFileSync(file);
      const env = { ...sandboxEnv(sandbox), PI_FAUX_SCRIPT: join(sandbox.root, "none.json") };
      writeFileSync(env.PI_FAUX_SCRIPT, "[]");
      const exports = Object.entries(env)
        .map(([k, v]) => `${k}='${v}'`)
        .join(" ");
      const command = `cd '${sandbox.cwd}' && env -i ${exports} '${process.execPath}' '${ENTRY}' -c --model faux/faux-1`;
      execFileSync("tmux", ["new-session", "-d", "-s", TMUX, "-x", "140", "-y", "50", command]);
      await until(() => existsSync(leasePath(file)), "the kit's lease");
      const lease = JSON.parse(readFileSync(leasePath(file), "utf8"));

      const refused = recover([file, "--json"]);
      expect(refused.exitCode).toBe(2);
      expect(JSON.parse(refused.stdout).error.code).toBe("E_IN_USE");
      expect(refused.stderr).toContain(`a Pi process with the kit (pid ${lease.pid}) holds its lease`);
      const dry = recover([file, "--dry-run", "--json"]);
      expect(dry.exitCode).toBe(0);
      expect(JSON.parse(dry.stdout).reason).toContain("a real run would refuse without --force");
      expect(readFileSync(file)).toEqual(before);

      spawnSync("tmux", ["kill-session", "-t", TMUX]);
      await until(() => {
        try {
          process.kill(lease.pid, 0);
          return false;
        } catch {
          return true;
        }
      }, "pi-context to exit");
      utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
      const after = recover([file, "--json"]);
      expect(after.exitCode, after.stderr).toBe(0);
      expect(JSON.parse(after.stdout).recovered).toBe(true);
    },
    90_000,
  );

  it("without the kit, refuses while a Pi process runs in the session's directory, unless --force", async () => {
    const sandbox = createCliSandbox();
    const file = stalledSession(sandbox);
    const pi = spawn(
      process.execPath,
      [
        PI_CLI_JS,
        "--no-extensions",
        "--no-skills",
        "-e",
        FAUX_EXT,
        "--model",
        "faux/faux-1",
        "--mode",
        "rpc",
        "--no-session",
      ],
      {
        cwd: sandbox.cwd,
        env: { ...sandboxEnv(sandbox), PI_FAUX_SCRIPT: join(sandbox.root, "none.json") },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    writeFileSync(join(sandbox.root, "none.json"), "[]");
    children.push(pi);
    await new Promise((resolve) => pi.once("spawn", resolve));
    const refused = recover([file]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`Pi process ${pi.pid} runs in the session's directory`);
    const forced = recover([file, "--force", "--json"]);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout).recovered).toBe(true);
  }, 60_000);
});
