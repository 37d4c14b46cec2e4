import { completionReport, recoveryMarker, stallStop } from "../../src/kit/host-messages.js";
import { Random } from "../../src/synth/random.js";
import { SessionBuilder } from "../../src/synth/session-builder.js";

const ROOT = "/home/user/project";
const FILES = ["src/app.ts", "src/db/schema.ts", "src/api/routes.ts", "test/app.test.ts", "docs/guide.md"];
const PROMISES = [
  "Let me check the compiler errors.",
  "I'll look at the build output first.",
  "Now I will fix the schema.",
];

export interface LargeSessionOptions {
  /** At least this many entries (a turn may end a few past it). */
  entries: number;
  /** About one side branch per this many entries (0: one linear branch). */
  forkEvery?: number;
  seed?: number;
}

/**
 * A large session built in linear time (`randomSession` is quadratic): turns of tool calls on a main line, side
 * branches forked from recent entries (as `/tree` does), denials, promise runs answered by recovery markers, stall
 * stops, completion reports, labels and a compaction now and then. The last entry is on the main line.
 */
export function largeSession(options: LargeSessionOptions): SessionBuilder {
  const rnd = new Random(options.seed ?? 42);
  const b = new SessionBuilder({ cwd: ROOT, sessionId: "large-00000000-0000-0000-0000-000000000001", seed: 9 });
  const forkEvery = options.forkEvery ?? 400;
  let calls = 0;
  let sideLeft = 0;
  let mainTip: string | null = null;
  const tool = (name: string, args: Record<string, unknown>, text: string, details?: unknown, isError = false) => {
    const id = `call_${calls++}`;
    b.assistant(rnd.chance(0.3) ? `Checking ${name} on ${String(args.path ?? "the project")}.` : "", [
      { name, args, id },
    ]);
    b.toolResult(id, name, text, details, isError);
  };
  b.modelChange("faux", "faux-1");
  while (b.entries.length < options.entries) {
    if (sideLeft === 0 && forkEvery > 0 && b.entries.length > 50 && rnd.chance(30 / forkEvery)) {
      mainTip = b.leafId;
      const back = b.entries[b.entries.length - 1 - rnd.int(40)];
      b.at(back?.id ?? null);
      sideLeft = 10 + rnd.int(40);
    }
    const path = rnd.pick(FILES);
    const roll = rnd.int(100);
    if (roll < 14)
      b.user(
        `Please update ${path} so that the ${rnd.pick(["report", "index", "parser"])} handles case ${b.entries.length}.`,
      );
    else if (roll < 40)
      tool("read", { path }, `// ${path}\n${"export const value = 1;\n".repeat(1 + rnd.int(20))}`, {
        path: `${ROOT}/${path}`,
      });
    else if (roll < 52)
      tool("edit", { path, edits: [] }, `Edited ${path}.`, { path: `${ROOT}/${path}`, mutated: true });
    else if (roll < 60) {
      const passed = rnd.chance(0.7);
      tool(
        "app_build",
        {},
        passed ? "build ok" : "error E102: unknown type",
        { status: passed ? "passed" : "failed" },
        !passed,
      );
    } else if (roll < 66) tool("app_test", {}, "12 passed", { status: "passed", testsRun: 12 });
    else if (roll < 70) {
      const details = {
        code: "CONTEXT_ACCESS_DENIED",
        status: "excluded",
        blocked: true,
        retryable: false,
        scope: `${ROOT}/generated`,
        rule: "marker",
        path: `${ROOT}/generated/x.ts`,
      };
      tool(
        "grep",
        { pattern: "TODO", path: "generated" },
        "CONTEXT_ACCESS_DENIED: generated/ is excluded",
        details,
        true,
      );
    } else if (roll < 74) {
      const promises = [
        b.assistant(rnd.pick(PROMISES)),
        b.assistant(rnd.pick(PROMISES)),
        b.assistant(rnd.pick(PROMISES)),
      ];
      const marker = recoveryMarker({ requestId: null, promiseEntryIds: promises, reason: "promise run" });
      b.customMessage(marker.customType, marker.content, marker.details);
      if (rnd.chance(0.2)) {
        const promise = b.assistant(rnd.pick(PROMISES));
        const stop = stallStop({ requestId: null, promiseEntryIds: [promise], anchorId: null });
        b.customMessage(stop.customType, stop.content, stop.details);
      }
    } else if (roll < 76) {
      const report = completionReport({
        requestId: null,
        revision: 1,
        round: 1,
        checks: [{ name: "app_build", status: "passed", by: "kit", summary: "ok" }],
      });
      b.customMessage(report.customType, report.content, report.details);
    } else if (roll < 77 && b.entries.length > 100)
      b.label(b.entries[b.entries.length - 2]?.id as string, `checkpoint ${b.entries.length}`);
    else if (roll < 78 && b.entries.length % 7 === 0 && b.entries.length > 2000) {
      b.compaction(
        `Summary of the work up to entry ${b.entries.length}.`,
        b.entries[b.entries.length - 30]?.id as string,
        50_000,
      );
    } else b.assistant(`Done with step ${b.entries.length}: ${path} is updated and the build passes.`);
    if (sideLeft > 0 && --sideLeft === 0) b.at(mainTip);
  }
  if (sideLeft > 0) b.at(mainTip).assistant("Back on the main line.");
  return b;
}
