import type { ToolDefinition } from "../tool-types.js";
import { runFixed, tail } from "./run-fixed-command.js";
import { parseTestsRun } from "./test-count.js";

/**
 * Example host capability: fixed `app_build` / `app_test` checks for the project root. A host lists a module under
 * its agent directory in `context-kit-host-tools.json`, e.g. `export { createTools } from "<kit>/dist/src/tools/examples/app-checks.js"`.
 */

export type AppCheck = "app_build" | "app_test";
export type AppCheckStatus = "passed" | "failed" | "no_tests" | "error";

export interface AppCheckDetails {
  check: AppCheck;
  status: AppCheckStatus;
  exitCode: number | null;
  testsRun?: number;
}

export interface AppCheckOptions {
  projectRoot: string;
  timeoutMs?: number;
  /** Output kept from the run and shown to the model (its tail). */
  maxOutputBytes?: number;
}

const COMMANDS: Record<AppCheck, readonly string[]> = {
  app_build: ["run", "--silent", "build"],
  app_test: ["test", "--silent"],
};

function statusOf(
  check: AppCheck,
  exitCode: number | null,
  failed: boolean,
  testsRun: number | undefined,
): AppCheckStatus {
  if (failed) return "error";
  if (check === "app_test" && testsRun === 0) return "no_tests";
  return exitCode === 0 ? "passed" : "failed";
}

function createCheck(
  check: AppCheck,
  options: Required<AppCheckOptions>,
): ToolDefinition<Record<string, never>, AppCheckDetails> {
  const command = `npm ${COMMANDS[check].join(" ")}`;
  return {
    name: check,
    label: check,
    description: `Run the project's fixed ${check === "app_build" ? "build" : "test suite"} (\`${command}\` in the project root) and report the result. Takes no arguments.`,
    parameters: { type: "object", properties: {}, additionalProperties: false },
    async execute(_id, _params, signal) {
      const run = await runFixed("npm", COMMANDS[check], {
        cwd: options.projectRoot,
        timeoutMs: options.timeoutMs,
        maxBufferBytes: Math.max(options.maxOutputBytes * 64, 1024 * 1024),
        signal,
      });
      const testsRun = check === "app_test" ? parseTestsRun(run.output) : undefined;
      const status = statusOf(check, run.exitCode, run.failure !== undefined, testsRun);
      const details: AppCheckDetails = { check, status, exitCode: run.exitCode };
      if (testsRun !== undefined) details.testsRun = testsRun;
      const facts = [
        run.exitCode === null ? (run.failure ?? "no exit code") : `exit ${run.exitCode}`,
        ...(testsRun === undefined ? [] : [`${testsRun} tests ran`]),
      ];
      const body = tail(run.output, options.maxOutputBytes);
      return {
        content: [{ type: "text", text: `${check}: ${status} (${facts.join(", ")})${body ? `\n\n${body}` : ""}` }],
        details,
      };
    },
  };
}

export function createAppCheckTools(
  options: AppCheckOptions,
): ToolDefinition<Record<string, never>, AppCheckDetails>[] {
  const resolved: Required<AppCheckOptions> = {
    projectRoot: options.projectRoot,
    timeoutMs: options.timeoutMs ?? 10 * 60 * 1000,
    maxOutputBytes: options.maxOutputBytes ?? 16 * 1024,
  };
  return [createCheck("app_build", resolved), createCheck("app_test", resolved)];
}

/** The host-capability entry point. */
export function createTools(context: { projectRoot: string; agentDir: string }) {
  return createAppCheckTools({ projectRoot: context.projectRoot });
}
