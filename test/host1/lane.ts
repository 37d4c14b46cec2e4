/**
 * The Pi 1.x host lane (`npm run test:host1`): tests in test/host1 run only when PI_CONTEXT_KIT_HOST names a 1.x
 * host package folder, under the Node 22 binary that test/host-lanes/run-host1.sh starts vitest with. Elsewhere
 * they skip; nothing here loads the host at import time.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { HOST_ENV, type HostPackage, resolveHost } from "../../src/pi/host.js";
import { isNewHostLine } from "../../src/pi/launcher.js";
import {
  type CliSandbox,
  createCliSandbox,
  type FauxRequest,
  type FauxStep,
  readJsonLines,
  runPi,
  sandboxEnv,
} from "../helpers/faux-cli.js";

function laneHost(): HostPackage | null {
  if (!process.env[HOST_ENV]) return null;
  let host: HostPackage | null = null;
  try {
    host = resolveHost();
  } catch {
    // not a host folder
  }
  const usable = host !== null && isNewHostLine(host);
  // run-host1.sh sets PI_HOST1_LANE: there, a missing or old host fails the lane instead of skipping it.
  if (!usable && process.env.PI_HOST1_LANE === "1") {
    throw new Error(`${HOST_ENV}=${process.env[HOST_ENV]} is not a Pi 1.x host package`);
  }
  return usable ? host : null;
}

/** The 1.x host under test, or null (the lane's tests skip). */
export const HOST1 = laneHost();
export const SKIP_HOST1 = HOST1 === null;
/** The 1.x host package folder (empty when skipping). */
export const HOST1_DIR = HOST1?.dir ?? "";
/** The 1.x host's own CLI (`bin.pi`, the bundle). */
export const HOST1_CLI = HOST1?.cli ?? "";
/** The child env that points the kit at the 1.x host (runNodeCli's env is minimal). */
export const HOST1_ENV: Record<string, string> = HOST1 ? { [HOST_ENV]: HOST1.dir } : {};

const ROOT = join(import.meta.dirname, "../..");
/** The built `pi-context` bin. */
export const LAUNCHER = join(ROOT, "dist/src/pi/launcher-main.js");
/** `pi-context` with the faux provider loaded first, the faux extension bound to the 1.x host's pi-ai. */
export const LAUNCHER_FAUX = join(import.meta.dirname, "pi-context-faux.mjs");
/** The kit as one extension, as users load it with `pi -e`. */
export const KIT_EXTENSION = join(ROOT, "dist/src/pi/kit-extension.js");
/** Prompts `pi -p` on the 1.x CLI with the kit loaded (`pi -e`), one scripted run per prompt, on one session file. */
export function kitPrompts(sandbox: CliSandbox, file: string) {
  return (text: string, script: FauxStep[]) =>
    runPi({
      sandbox,
      entry: HOST1_CLI,
      extraExtensions: [KIT_EXTENSION],
      timeoutMs: 60_000,
      args: ["--session", file, "-p", text],
      script,
    });
}

/** The 0.73 line installed in the main dependencies. */
export const HOST0_DIR = join(ROOT, "node_modules/@mariozechner/pi-coding-agent");

/** Settings for sandboxes whose sessions get compacted by hand: no retries, no auto-compaction, keep little. */
export const COMPACTING_SETTINGS = { retry: { enabled: false }, compaction: { enabled: false, keepRecentTokens: 1 } };

export type RpcEvent = Record<string, unknown> & { type: string };

export interface RpcSession {
  events: RpcEvent[];
  send(command: Record<string, unknown>): void;
  /** Resolves when `check` holds (re-checked on every stdout record); rejects after `ms`. */
  until(check: () => boolean, ms?: number): Promise<void>;
  /** Sends a prompt and waits until the host settles (`agent_settled`) once more. */
  prompt(message: string): Promise<void>;
  /** Resolves once the host has settled and `ms` pass without another record (nothing continues on its own). */
  idle(ms?: number): Promise<void>;
  count(type: string): number;
}

export interface RpcRun {
  exitCode: number | null;
  stderr: string;
  events: RpcEvent[];
  requests: FauxRequest[];
}

/**
 * Runs `node <entry> --mode rpc <args>` in the sandbox, offline on the faux provider (script and request log as in
 * faux-cli.ts), drives it with `steps`, then closes stdin and waits for the exit. Records split on LF only.
 */
export async function runRpc(options: {
  entry: string;
  args: string[];
  sandbox?: CliSandbox;
  script: unknown[];
  env?: Record<string, string>;
  steps: (rpc: RpcSession) => Promise<void>;
  timeoutMs?: number;
}): Promise<RpcRun> {
  const sb = options.sandbox ?? createCliSandbox();
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const scriptFile = join(sb.root, `rpc-script-${stamp}.json`);
  const logFile = join(sb.root, `rpc-log-${stamp}.jsonl`);
  writeFileSync(scriptFile, JSON.stringify(options.script));
  const env = { ...sandboxEnv(sb), PI_FAUX_SCRIPT: scriptFile, PI_FAUX_LOG: logFile, ...options.env };
  const child = spawn(process.execPath, [options.entry, "--mode", "rpc", ...options.args], {
    cwd: sb.cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  const events: RpcEvent[] = [];
  const waiters = new Set<() => void>();
  let pending = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    pending += d;
    for (let at = pending.indexOf("\n"); at >= 0; at = pending.indexOf("\n")) {
      const line = pending.slice(0, at).replace(/\r$/, "");
      pending = pending.slice(at + 1);
      if (line.trim() === "") continue;
      try {
        events.push(JSON.parse(line) as RpcEvent);
      } catch {
        events.push({ type: "unparsed", line });
      }
    }
    for (const wake of [...waiters]) wake();
  });
  const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const count = (type: string) => events.filter((e) => e.type === type).length;
  const until = (check: () => boolean, ms = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const wake = () => {
        if (!check()) return;
        clearTimeout(timer);
        waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(wake);
        reject(new Error(`rpc: timed out; stderr: ${stderr.slice(-2000)}`));
      }, ms);
      waiters.add(wake);
      wake();
    });
  const send = (command: Record<string, unknown>) => child.stdin.write(`${JSON.stringify(command)}\n`);
  const session: RpcSession = {
    events,
    send,
    until,
    count,
    async prompt(message) {
      const settled = count("agent_settled");
      send({ type: "prompt", message });
      await until(() => count("agent_settled") > settled);
    },
    async idle(ms = 1000) {
      for (;;) {
        await until(() => events.at(-1)?.type === "agent_settled");
        const seen = events.length;
        await new Promise((resolve) => setTimeout(resolve, ms));
        if (events.length === seen) return;
      }
    },
  };
  const killer = setTimeout(() => {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  }, options.timeoutMs ?? 60_000);
  try {
    await options.steps(session);
  } finally {
    child.stdin.end();
  }
  const exitCode = await closed;
  clearTimeout(killer);
  return { exitCode, stderr, events, requests: readJsonLines(logFile) as unknown as FauxRequest[] };
}
