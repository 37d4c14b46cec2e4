import { execFile } from "node:child_process";

export interface FixedRun {
  /** null when the process did not exit on its own (spawn failure, timeout, output limit). */
  exitCode: number | null;
  output: string;
  failure?: "spawn" | "timeout" | "output-limit";
}

export interface FixedRunOptions {
  cwd: string;
  timeoutMs: number;
  maxBufferBytes: number;
  signal?: AbortSignal | undefined;
}

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Runs one fixed program with fixed arguments: no shell, a timeout, bounded captured output. */
export function runFixed(file: string, args: readonly string[], options: FixedRunOptions): Promise<FixedRun> {
  return new Promise((resolve) => {
    execFile(
      file,
      [...args],
      {
        cwd: options.cwd,
        timeout: options.timeoutMs,
        maxBuffer: options.maxBufferBytes,
        shell: false,
        windowsHide: true,
        encoding: "utf8",
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr ? `\n${stderr}` : ""}`.replace(ANSI, "");
        if (!error) return resolve({ exitCode: 0, output });
        const code = (error as { code?: unknown }).code;
        if (code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER")
          return resolve({ exitCode: null, output, failure: "output-limit" });
        if (error.killed || (error as { signal?: unknown }).signal)
          return resolve({ exitCode: null, output, failure: "timeout" });
        if (typeof code === "number") return resolve({ exitCode: code, output });
        resolve({ exitCode: null, output: `${output}\n${error.message}`, failure: "spawn" });
      },
    );
  });
}

/** The last `maxBytes` of text, cut at a line start where possible. */
export function tail(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text.trimEnd(), "utf8");
  if (bytes.length <= maxBytes) return bytes.toString("utf8");
  const cut = bytes.subarray(bytes.length - maxBytes).toString("utf8");
  const newline = cut.indexOf("\n");
  return `[... earlier output omitted]\n${newline >= 0 ? cut.slice(newline + 1) : cut}`;
}
