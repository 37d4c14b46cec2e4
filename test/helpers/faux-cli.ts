/**
 * Runs the REAL `pi` CLI (or any node entry point, e.g. a launcher that spawns Pi) as a subprocess, offline, on the
 * faux provider from faux-cli-ext.ts. Everything lives in a temporary sandbox: agent dir, HOME, TMPDIR (jiti cache),
 * cwd, the script and the request log. The child gets a minimal environment (no provider keys leak in).
 *
 *   const sb = createCliSandbox({ files: { "hello.txt": "hi\n" } });
 *   const r = await runPi({ sandbox: sb, script: [{ toolCalls: [{ name: "read", args: { path: "hello.txt" } }] },
 *                                               { text: "It says hi." }], args: ["-p", "What does hello.txt say?"] });
 *   r.exitCode, r.stdout, r.requests, r.sessionFile, r.entries()
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { FAUX_MODEL_REF, type FauxRequest, type FauxStep, readJsonLines, writeFiles } from "./faux-common.js";

export * from "./faux-common.js";

/** The `-e` extension that registers the faux provider in a Pi process. */
export const FAUX_CLI_EXT = join(import.meta.dirname, "faux-cli-ext.ts");

function findPiPackageDir(): string {
  let dir = import.meta.dirname;
  for (;;) {
    const candidate = join(dir, "node_modules", "@mariozechner", "pi-coding-agent");
    if (existsSync(join(candidate, "package.json"))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("faux-cli: @mariozechner/pi-coding-agent not found in any node_modules");
    dir = parent;
  }
}

/** Pi's CLI entry point (`bin.pi` of the installed package). */
export const PI_CLI_JS = join(findPiPackageDir(), "dist", "cli.js");

/** Discovery flags passed to Pi by default (runPi `flags` replaces them). */
export const DEFAULT_PI_FLAGS: readonly string[] = [
  "--no-extensions",
  "--no-skills",
  "--no-context-files",
  "--no-prompt-templates",
  "--no-themes",
];

/** Written to `<agentDir>/settings.json` unless the sandbox gets other settings: no retries, no auto-compaction. */
export const DEFAULT_CLI_SETTINGS: Record<string, unknown> = {
  retry: { enabled: false },
  compaction: { enabled: false },
};

export interface CliSandbox {
  /** Temp root holding everything below; removed by `removeCliSandbox` / `cleanupCliSandboxes`. */
  root: string;
  /** Default working directory for runs (`<root>/work`). */
  cwd: string;
  /** PI_CODING_AGENT_DIR (`<root>/agent`). */
  agentDir: string;
  /** HOME (`<root>/home`). */
  home: string;
  /** TMPDIR (`<root>/tmp`); jiti caches transpiled `-e` files here. */
  tmp: string;
}

export interface CliSandboxOptions {
  /** Files written relative to the sandbox cwd before any run (directories are created). */
  files?: Record<string, string>;
  /** Agent-dir settings.json content; null writes none (Pi defaults, i.e. retry and compaction ON). */
  settings?: Record<string, unknown> | null;
}

const sandboxes = new Set<string>();
let runCounter = 0;

export function createCliSandbox(options: CliSandboxOptions = {}): CliSandbox {
  const root = mkdtempSync(join(tmpdir(), "pi-faux-cli-"));
  sandboxes.add(root);
  const sb: CliSandbox = {
    root,
    cwd: join(root, "work"),
    agentDir: join(root, "agent"),
    home: join(root, "home"),
    tmp: join(root, "tmp"),
  };
  for (const dir of [sb.cwd, sb.agentDir, sb.home, sb.tmp]) mkdirSync(dir, { recursive: true });
  const settings = options.settings === undefined ? DEFAULT_CLI_SETTINGS : options.settings;
  if (settings !== null) writeFileSync(join(sb.agentDir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
  writeFiles(sb.cwd, options.files ?? {});
  return sb;
}

export function removeCliSandbox(sb: CliSandbox): void {
  rmSync(sb.root, { recursive: true, force: true });
  sandboxes.delete(sb.root);
}

/** Removes every sandbox this module created (use in afterAll). */
export function cleanupCliSandboxes(): void {
  for (const root of sandboxes) rmSync(root, { recursive: true, force: true });
  sandboxes.clear();
}

/** The environment a sandboxed child gets (before `env` overrides). Deliberately minimal: no inherited API keys. */
export function sandboxEnv(sb: CliSandbox): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: sb.home,
    USERPROFILE: sb.home,
    TMPDIR: sb.tmp,
    XDG_CONFIG_HOME: join(sb.home, ".config"),
    XDG_CACHE_HOME: join(sb.home, ".cache"),
    XDG_DATA_HOME: join(sb.home, ".local", "share"),
    PI_CODING_AGENT_DIR: sb.agentDir,
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    TERM: "dumb",
    NO_COLOR: "1",
    LANG: "C.UTF-8",
  };
}

export interface RunNodeCliOptions {
  /** The node entry point (a .js file; run as `node <nodeArgs> <entry> <args>`). */
  entry: string;
  args?: string[];
  nodeArgs?: string[];
  /** Default: a fresh sandbox. Reuse one sandbox for runs that share a session file. */
  sandbox?: CliSandbox;
  /** Default: sandbox.cwd. */
  cwd?: string;
  /** Faux replies for this run (written to a file named by PI_FAUX_SCRIPT). Default: [] (every request errors). */
  script?: FauxStep[];
  /** Extra env for the child, applied last; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** Written to the child's stdin, then closed. Default: stdin is /dev/null. (Piped stdin forces Pi's print mode.) */
  input?: string;
  /** Default 20 000. On timeout the child's process group gets SIGKILL and `timedOut` is true. */
  timeoutMs?: number;
}

export interface CliRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** One record per provider request, in order (from PI_FAUX_LOG). */
  requests: FauxRequest[];
  /**
   * The session file of this run: the `--session <path>` argument if that file exists, else the newest .jsonl
   * created or changed during the run under `--session-dir`, PI_CODING_AGENT_SESSION_DIR or `<agentDir>/sessions`.
   */
  sessionFile?: string;
  /** Parsed lines of `sessionFile` (header first); [] when there is none. */
  entries(): Record<string, unknown>[];
  sandbox: CliSandbox;
  durationMs: number;
  /** The exact argv after `node`. */
  argv: string[];
}

function argValue(args: readonly string[], flag: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === flag) return args[i + 1];
    if (a?.startsWith(`${flag}=`)) return a.slice(flag.length + 1);
  }
  return undefined;
}

function listJsonl(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const ent of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, ent.name);
    if (ent.isDirectory()) out.push(...listJsonl(path));
    else if (ent.name.endsWith(".jsonl")) out.push(path);
  }
  return out;
}

function sessionDirs(args: readonly string[], cwd: string, sb: CliSandbox, env: Record<string, string>): string[] {
  const sessionDir = argValue(args, "--session-dir");
  return [
    sessionDir ? resolve(cwd, sessionDir) : undefined,
    env.PI_CODING_AGENT_SESSION_DIR,
    join(env.PI_CODING_AGENT_DIR ?? sb.agentDir, "sessions"),
  ].filter((d): d is string => d !== undefined);
}

/** path → {mtime, size} of every .jsonl under the session dirs. */
function snapshotSessions(dirs: readonly string[]): Map<string, { mtime: number; size: number }> {
  const out = new Map<string, { mtime: number; size: number }>();
  for (const dir of dirs) {
    for (const path of listJsonl(dir)) {
      const st = statSync(path);
      out.set(path, { mtime: st.mtimeMs, size: st.size });
    }
  }
  return out;
}

function findSessionFile(
  args: readonly string[],
  cwd: string,
  dirs: readonly string[],
  before: Map<string, { mtime: number; size: number }>,
): string | undefined {
  const session = argValue(args, "--session");
  if (session && (session.includes("/") || session.endsWith(".jsonl"))) {
    const path = isAbsolute(session) ? session : resolve(cwd, session);
    if (existsSync(path)) return path;
  }
  // Otherwise: the newest file created or changed during the run.
  let best: { path: string; mtime: number } | undefined;
  for (const [path, now] of snapshotSessions(dirs)) {
    const was = before.get(path);
    if (was && was.mtime === now.mtime && was.size === now.size) continue;
    if (!best || now.mtime > best.mtime) best = { path, mtime: now.mtime };
  }
  return best?.path;
}

/** Spawns `node <entry>` in a sandbox with the faux env (PI_FAUX_SCRIPT / PI_FAUX_LOG) and collects the results. */
export async function runNodeCli(options: RunNodeCliOptions): Promise<CliRun> {
  const sb = options.sandbox ?? createCliSandbox();
  const cwd = options.cwd ?? sb.cwd;
  const args = options.args ?? [];
  const n = ++runCounter;
  const scriptFile = join(sb.root, `faux-script-${n}.json`);
  const logFile = join(sb.root, `faux-log-${n}.jsonl`);
  writeFileSync(scriptFile, JSON.stringify(options.script ?? []));

  const env: Record<string, string> = { ...sandboxEnv(sb), PI_FAUX_SCRIPT: scriptFile, PI_FAUX_LOG: logFile };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const argv = [...(options.nodeArgs ?? []), options.entry, ...args];
  const timeoutMs = options.timeoutMs ?? 20_000;
  const dirs = sessionDirs(args, cwd, sb, env);
  const before = snapshotSessions(dirs);
  const started = Date.now();

  const child = spawn(process.execPath, argv, {
    cwd,
    env,
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    detached: true, // own process group, so a timeout can kill grandchildren too
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  child.stderr?.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  if (options.input !== undefined) child.stdin?.end(options.input);

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
  }, timeoutMs);

  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolveExit, reject) => {
      child.on("error", reject);
      child.on("close", (c, s) => resolveExit({ code: c, signal: s }));
    },
  ).finally(() => clearTimeout(timer));

  const requests = readJsonLines(logFile) as unknown as FauxRequest[];
  const sessionFile = findSessionFile(args, cwd, dirs, before);
  return {
    exitCode: code,
    signal,
    timedOut,
    stdout,
    stderr,
    requests,
    ...(sessionFile === undefined ? {} : { sessionFile }),
    entries: () => (sessionFile === undefined ? [] : readJsonLines(sessionFile)),
    sandbox: sb,
    durationMs: Date.now() - started,
    argv,
  };
}

export interface RunPiOptions extends Omit<RunNodeCliOptions, "entry"> {
  /** Discovery flags placed first. Default DEFAULT_PI_FLAGS; pass [] (or your own) when the caller manages them. */
  flags?: readonly string[];
  /** More `-e` extensions, loaded after the faux one. */
  extraExtensions?: string[];
  /** `--model` value. Default "faux/faux-1"; null passes no --model. */
  model?: string | null;
  /** Load FAUX_CLI_EXT with `-e`. Default true. */
  fauxExtension?: boolean;
  /** Default: Pi's dist/cli.js. */
  entry?: string;
}

/** Pi's own argv for a faux run: flags, `-e` extensions, `--model`, then `args`. */
export function piArgs(options: Omit<RunPiOptions, "sandbox" | "script" | "env" | "input" | "timeoutMs">): string[] {
  const out = [...(options.flags ?? DEFAULT_PI_FLAGS)];
  if (options.fauxExtension ?? true) out.push("-e", FAUX_CLI_EXT);
  for (const ext of options.extraExtensions ?? []) out.push("-e", ext);
  const model = options.model === undefined ? FAUX_MODEL_REF : options.model;
  if (model !== null) out.push("--model", model);
  out.push(...(options.args ?? []));
  return out;
}

/** Runs the real `pi` CLI in a sandbox on the faux provider. */
export function runPi(options: RunPiOptions = {}): Promise<CliRun> {
  const { flags, extraExtensions, model, fauxExtension, entry, args, ...rest } = options;
  return runNodeCli({
    ...rest,
    entry: entry ?? PI_CLI_JS,
    args: piArgs({
      ...(flags === undefined ? {} : { flags }),
      ...(extraExtensions === undefined ? {} : { extraExtensions }),
      ...(model === undefined ? {} : { model }),
      ...(fauxExtension === undefined ? {} : { fauxExtension }),
      ...(args === undefined ? {} : { args }),
    }),
  });
}
