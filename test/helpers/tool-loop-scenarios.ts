import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { KIT, TOOL_LOOP_PREFIX, TOOL_LOOP_REFUSED, TOOL_LOOP_STOP_CODE } from "../../reducers/contract/kit-entries.js";
import { toolLoopEpisodes, toolLoopReport } from "../../reducers/tool-loop.js";
import { runCli } from "../../src/cli/run.js";
import { foldTree } from "../../src/fold/session-fold.js";
import { loadSessionText } from "../../src/session.js";
import type { FauxRequest, FauxStep } from "./faux-common.js";

/** The two live tool-loop scenarios, shared by the host lines: a model repeating a read, a model polling a log. */

type Stored = { type: string; customType?: string; content?: unknown; message?: Record<string, unknown> };

export interface LoopScenario {
  files: Record<string, string>;
  prompt: string;
  script: FauxStep[];
}

const readStep = (path: string): FauxStep => ({ text: "", toolCalls: [{ name: "read", args: { path } }] });

export const REPEAT: LoopScenario = {
  files: { "config.json": '{"port": 8080}\n' },
  prompt: "Which port does config.json set?",
  script: [...Array.from({ length: 7 }, () => readStep("config.json")), { text: "unreachable" }],
};

export const POLL: LoopScenario = {
  files: { "build.log": "compiled 0 modules\n" },
  prompt: "Wait until the build log says it is done.",
  script: [
    ...Array.from({ length: 6 }, (_, i) => ({
      ...readStep("build.log"),
      files: { "build.log": `compiled ${i + 1} modules\n` },
    })),
    { text: "The build is done." },
  ],
};

const kinds = (entries: Stored[]) =>
  entries
    .filter((e) => e.type === "message" || e.type === "custom_message")
    .filter((e) => e.message?.role !== "system")
    .map((e) =>
      e.type === "message" ? `${e.message?.role}:${e.message?.stopReason ?? ""}` : `custom_message:${e.customType}`,
    );

/** Four reads, the marker (seen by the fifth request), the refused fifth read, the stop, then only the aborted request. */
export function expectMarkerRefusalStop(all: Record<string, unknown>[], requests: readonly FauxRequest[]): void {
  const entries = all as Stored[];
  // The run ends with the aborted request (1.x records the abort as stopReason "error", "This operation was aborted").
  const last = entries.at(-1)?.message;
  expect(String(last?.stopReason ?? "") + String(last?.errorMessage ?? "")).toMatch(/^aborted|^error.*aborted/i);
  expect(kinds(entries).slice(0, -1)).toEqual([
    "user:",
    ...Array.from({ length: 4 }, () => ["assistant:toolUse", "toolResult:"]).flat(),
    `custom_message:${KIT.toolLoopMarker}`,
    "assistant:toolUse",
    "toolResult:",
    `custom_message:${KIT.toolLoopStop}`,
  ]);
  const marker = entries.find((e) => e.customType === KIT.toolLoopMarker);
  expect(String(marker?.content)).toMatch(new RegExp(`^${TOOL_LOOP_PREFIX}: .*\\(repeat\\)`));
  expect(String(marker?.content)).toContain('read {"path":"config.json"}');
  expect(String(marker?.content)).toContain('Unchanged result: {"port": 8080}');
  expect(requests[4]?.messages.some((m) => m.text.startsWith(TOOL_LOOP_PREFIX))).toBe(true);
  const results = entries.filter((e) => e.message?.role === "toolResult").map((e) => e.message);
  expect(results.map((m) => m?.isError)).toEqual([false, false, false, false, true]);
  expect(JSON.stringify(results[4]?.content)).toContain(`${TOOL_LOOP_REFUSED} (not retryable)`);
  const stop = entries.find((e) => e.customType === KIT.toolLoopStop);
  expect(String(stop?.content)).toMatch(new RegExp(`^${TOOL_LOOP_STOP_CODE}`));
  expect(stop).toMatchObject({ details: { markerId: (marker as { id?: string } | undefined)?.id } });
  const ids = new Set(all.map((e) => e.id));
  const named = (marker as { details?: { loop?: { entryIds?: string[] } } }).details?.loop?.entryIds ?? [];
  expect(named.length).toBeGreaterThanOrEqual(7);
  expect(named.every((id) => ids.has(id))).toBe(true);
  // Offline, the saved session still reports the loop the stop named.
  const { tree } = loadSessionText("loop.jsonl", all.map((e) => JSON.stringify(e)).join("\n"));
  expect(toolLoopReport(foldTree(tree).stateAt(tree.activeLeafId).toolLoop)?.kind).toBe("repeat");
}

/** `context-kit check` on the saved session: every recorded request's view is reproduced offline (marker included). */
export async function expectCheckClean(all: Record<string, unknown>[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "ck-loop-check-"));
  try {
    writeFileSync(join(dir, "loop.jsonl"), `${all.map((e) => JSON.stringify(e)).join("\n")}\n`);
    const out = await runCli(["check", "loop.jsonl", "--json"], { cwd: dir });
    expect(out.exitCode, out.stdout).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Six reads of a log that changed each time, then the answer: no kit message, no refusal. */
export function expectNoLoop(all: Record<string, unknown>[]): void {
  const entries = all as Stored[];
  expect(entries.filter((e) => e.type === "custom_message")).toHaveLength(0);
  const results = entries.filter((e) => e.message?.role === "toolResult").map((e) => e.message);
  expect(results).toHaveLength(6);
  expect(results.every((m) => m?.isError === false)).toBe(true);
  expect(JSON.stringify(results.at(-1)?.content)).toContain("compiled 6 modules");
}

/** A `message` send without a target (the soft-error tool in `soft-error-tool.mjs`), five times. */
export const SOFT_ERROR: LoopScenario = {
  files: {},
  prompt: "Send the build report to the team channel.",
  script: [
    ...Array.from({ length: 5 }, () => ({
      text: "",
      toolCalls: [{ name: "message", args: { action: "send", message: "Build finished" } }],
    })),
    { text: "unreachable" },
  ],
};

export const SOFT_ERROR_TOOL = join(import.meta.dirname, "soft-error-tool.mjs");

const writeStep = (port: number): FauxStep => ({
  text: "",
  toolCalls: [{ name: "write", args: { path: "config.json", content: `{"port": ${port}}\n` } }],
});

/** One file written v1, v2, v1, v2, … (the same length, so every write reports the same result). */
export const WRITE_FLIP: LoopScenario = {
  files: { "config.json": '{"port": 8080}\n' },
  prompt: "Set the port in config.json.",
  script: [...Array.from({ length: 8 }, (_, i) => writeStep(i % 2 === 0 ? 8080 : 9090)), { text: "unreachable" }],
};

/** Three reads answering each of two user messages, then a reply: a retry the user asked for. */
export const USER_RETRY: {
  files: Record<string, string>;
  prompts: [string, string];
  scripts: [FauxStep[], FauxStep[]];
} = {
  files: REPEAT.files,
  prompts: ["Which port does config.json set?", "Try checking it again."],
  scripts: [
    [...Array.from({ length: 3 }, () => readStep("config.json")), { text: "Port 8080." }],
    [...Array.from({ length: 3 }, () => readStep("config.json")), { text: "Still port 8080." }],
  ],
};

/**
 * `calls` calls, the marker naming `kind` (seen by the next request), the refused next call, the stop, then only the
 * aborted request; offline, `replay` lists the episode as the one the branch ends in.
 */
export function expectLoopMarked(all: Record<string, unknown>[], kind: string, calls: number, callText: string): void {
  const entries = all as Stored[];
  const last = entries.at(-1)?.message;
  expect(String(last?.stopReason ?? "") + String(last?.errorMessage ?? "")).toMatch(/^aborted|^error.*aborted/i);
  expect(kinds(entries).slice(0, -1)).toEqual([
    "user:",
    ...Array.from({ length: calls }, () => ["assistant:toolUse", "toolResult:"]).flat(),
    `custom_message:${KIT.toolLoopMarker}`,
    "assistant:toolUse",
    "toolResult:",
    `custom_message:${KIT.toolLoopStop}`,
  ]);
  const marker = entries.find((e) => e.customType === KIT.toolLoopMarker);
  expect(String(marker?.content)).toMatch(new RegExp(`^${TOOL_LOOP_PREFIX}: .*\\(${kind}\\)`));
  expect(String(marker?.content)).toContain(callText);
  const results = entries.filter((e) => e.message?.role === "toolResult").map((e) => e.message);
  expect(results.slice(0, calls).every((m) => m?.isError === false)).toBe(true);
  expect(JSON.stringify(results[calls]?.content)).toContain(`${TOOL_LOOP_REFUSED} (not retryable)`);
  const { tree } = loadSessionText("loop.jsonl", all.map((e) => JSON.stringify(e)).join("\n"));
  const state = foldTree(tree).stateAt(tree.activeLeafId);
  expect(toolLoopReport(state.toolLoop)?.kind).toBe(kind);
  const episodes = toolLoopEpisodes(state.toolLoop);
  expect(episodes.map((e) => [e.kind, e.callCount])).toEqual([[kind, calls]]);
}

/** The soft-error results differ only in their generated run ids. */
export function expectIdOnlyChanges(all: Record<string, unknown>[]): void {
  const texts = (all as Stored[])
    .filter((e) => e.message?.role === "toolResult")
    .slice(0, 3)
    .map((e) => JSON.stringify(e.message?.content));
  expect(new Set(texts).size).toBe(3);
  expect(new Set(texts.map((t) => t.replace(/run-[\w-]+/, "run-id"))).size).toBe(1);
  expect(texts[0]).toContain('\\"status\\": \\"error\\"');
}

/** Two user requests, three identical reads each: no kit message, no refusal, both replies given. */
export function expectUserRetryNoLoop(all: Record<string, unknown>[]): void {
  const entries = all as Stored[];
  expect(entries.filter((e) => e.type === "custom_message")).toHaveLength(0);
  const results = entries.filter((e) => e.message?.role === "toolResult").map((e) => e.message);
  expect(results).toHaveLength(6);
  expect(results.every((m) => m?.isError === false)).toBe(true);
  expect(entries.filter((e) => e.message?.role === "user")).toHaveLength(2);
  const { tree } = loadSessionText("retry.jsonl", all.map((e) => JSON.stringify(e)).join("\n"));
  expect(toolLoopEpisodes(foldTree(tree).stateAt(tree.activeLeafId).toolLoop)).toEqual([]);
}
