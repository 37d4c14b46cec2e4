import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";

/** How the guarded grep finds ripgrep: a path, `null` for none, `undefined` to look where the host keeps it. */
export type RipgrepSetting = string | null | undefined;

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The `rg` the host would use: `<agentDir>/bin/rg` (the host downloads its own there), else the first `rg` on PATH;
 * null when there is none.
 */
export function findRipgrep(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string | null {
  const name = process.platform === "win32" ? "rg.exe" : "rg";
  const agentDir = env.PI_CODING_AGENT_DIR || join(home, ".pi", "agent");
  const candidates = [join(agentDir, "bin", name), ...(env.PATH ?? "").split(delimiter).map((dir) => join(dir, name))];
  return candidates.find((path) => !path.startsWith(name) && executable(path)) ?? null;
}

/** A glob matching `text` literally (ripgrep's globs take `\` escapes). */
function globLiteral(text: string): string {
  return text.replace(/[\\*?[\]{}!,]/g, "\\$&");
}

/** Options every run shares: no config file, no ignore files, hidden files searched, symlinks never followed. */
const BASE_ARGS = ["--no-config", "--no-ignore", "--hidden", "--no-follow", "--color=never"];

export interface RipgrepRun {
  rg: string;
  /** Directory searched (canonical); result paths are relative to it. */
  cwd: string;
  caseInsensitive: boolean;
  signal: AbortSignal | undefined;
}

interface Spawned {
  code: number | null;
  stderr: string;
  stopped: boolean;
}

/** Runs rg in `cwd` and hands each stdout record (split on `separator`) to `onRecord`; `false` stops rg. */
function runRipgrep(
  run: RipgrepRun,
  args: string[],
  separator: string,
  onRecord: (record: string) => boolean | undefined,
): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.RIPGREP_CONFIG_PATH;
    const child = spawn(run.rg, [...BASE_ARGS, ...(run.caseInsensitive ? ["--glob-case-insensitive"] : []), ...args], {
      cwd: run.cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let pending = "";
    let stopped = false;
    const stop = () => {
      stopped = true;
      child.kill();
    };
    const onAbort = () => stop();
    run.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (stopped) return;
      pending += chunk;
      let at = pending.indexOf(separator);
      while (at >= 0) {
        const record = pending.slice(0, at);
        pending = pending.slice(at + 1);
        if (record !== "" && onRecord(record) === false) {
          stop();
          return;
        }
        at = pending.indexOf(separator);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => {
      run.signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("close", (code) => {
      run.signal?.removeEventListener("abort", onAbort);
      if (!stopped && pending !== "") onRecord(pending);
      resolve({ code, stderr, stopped });
    });
  });
}

export interface RipgrepQuery {
  pattern: string;
  literal: boolean;
  ignoreCase: boolean;
  glob: string | undefined;
  maxFileBytes: number;
  /** Directories (relative to cwd) never entered. */
  excludeDirs: readonly string[];
  skipDirNames: Iterable<string>;
}

export interface RipgrepLine {
  /** Relative to the searched directory, `/`-separated. */
  rel: string;
  /** 1-based. */
  line: number;
  text: string;
}

/** How a search ended: `unusable` when rg refused the pattern or a glob (the caller searches another way). */
export type RipgrepOutcome = { kind: "done" } | { kind: "unusable"; why: string };

function decode(field: { text?: string; bytes?: string } | undefined): string | undefined {
  if (field?.text !== undefined) return field.text;
  return field?.bytes === undefined ? undefined : Buffer.from(field.bytes, "base64").toString("utf8");
}

/**
 * Matching lines in path order (depth-first, names sorted, like the built-in walk). `accept` sees each line and
 * returns false to stop the search.
 */
export async function ripgrepLines(
  run: RipgrepRun,
  query: RipgrepQuery,
  accept: (line: RipgrepLine) => boolean,
): Promise<RipgrepOutcome> {
  const args = ["--json", "--line-number", "--sort", "path", "--max-filesize", String(query.maxFileBytes)];
  if (query.ignoreCase) args.push("--ignore-case");
  if (query.literal) args.push("--fixed-strings");
  // Later globs win in rg: the caller's filter first, then every exclusion.
  if (query.glob) args.push("--glob", query.glob);
  for (const name of query.skipDirNames) args.push("--glob", `!${globLiteral(name)}/`);
  for (const dir of query.excludeDirs) args.push("--glob", `!/${globLiteral(dir)}/`);
  let seen = 0;
  const done = await runRipgrep(run, [...args, "--", query.pattern, "."], "\n", (record) => {
    if (!record.startsWith('{"type":"match"')) return true;
    const event = JSON.parse(record) as {
      data?: {
        path?: { text?: string; bytes?: string };
        lines?: { text?: string; bytes?: string };
        line_number?: number;
      };
    };
    const path = decode(event.data?.path);
    const text = decode(event.data?.lines);
    const line = event.data?.line_number;
    if (path === undefined || text === undefined || typeof line !== "number") return true;
    seen++;
    return accept({ rel: path.replace(/^\.\//, ""), line, text: text.replace(/\r?\n$/, "") });
  });
  if (done.stopped || done.code === 0 || done.code === 1) return { kind: "done" };
  // Exit 2 with matches means some file could not be read: keep what was found, as the host does.
  if (seen > 0) return { kind: "done" };
  return { kind: "unusable", why: done.stderr.trim() || `rg exited with ${done.code}` };
}
