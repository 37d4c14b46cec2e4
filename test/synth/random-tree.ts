import { KIT } from "../../reducers/contract/kit-entries.js";
import { completionReport, recoveryMarker } from "../../src/kit/host-messages.js";
import { Random } from "./random.js";
import { SessionBuilder } from "./session-builder.js";

const PROMISES = [
  "Let me check the compiler errors.",
  "I'll look at the build output first.",
  "我来检查一下编译错误。",
];
const TOOLS = ["read", "grep", "ls", "edit", "write", "app_build", "app_test"];

/**
 * A random but reproducible session tree with every entry type the kit folds: branches, compactions, branch
 * summaries, custom and custom_message entries (kit ones included), labels, model and thinking changes, denials.
 */
export function randomSession(seed: number, size = 40): SessionBuilder {
  const rnd = new Random(seed);
  const b = new SessionBuilder({ seed: (seed % 1000) + 1, sessionId: `random-${seed}` });
  b.user("first request");
  for (let i = 0; i < size; i++) {
    if (b.entries.length > 2 && rnd.chance(0.08)) b.at(rnd.pick(b.entries).id);
    const path = pathIds(b);
    const roll = rnd.int(100);
    if (roll < 18) b.user(`request ${i}`);
    else if (roll < 30) b.assistant(rnd.chance(0.5) ? rnd.pick(PROMISES) : `answer ${i}`);
    else if (roll < 50) toolRound(b, rnd);
    else if (roll < 54 && path.length > 3) b.compaction(`summary ${i}`, rnd.pick(path.slice(0, -1)), 100 * i);
    else if (roll < 57) b.branchSummary(rnd.pick(b.entries).id, rnd.chance(0.8) ? `branch summary ${i}` : "");
    else if (roll < 61) b.custom("other-ext/state", { i });
    else if (roll < 65) b.customMessage("other-ext/note", `note ${i}`, { i }, rnd.chance(0.5));
    else if (roll < 68) {
      const m = recoveryMarker({ requestId: null, promiseEntryIds: [], reason: "random" });
      b.customMessage(m.customType, m.content, m.details);
    } else if (roll < 70) {
      const m = completionReport({ requestId: null, revision: 1, round: 1, checks: [] });
      b.customMessage(m.customType, m.content, m.details);
    } else if (roll < 72) b.custom(KIT.policyAllowed, { scope: "/p/gen" });
    else if (roll < 76) b.label(rnd.pick(b.entries).id, rnd.chance(0.7) ? `label ${i}` : undefined);
    else if (roll < 79) b.modelChange("faux", `faux-${rnd.int(3)}`);
    else if (roll < 82) b.thinking(rnd.pick(["off", "low", "high"]));
    else if (roll < 84) b.sessionInfo(`name ${i}`);
    else b.user(`more ${i}`);
  }
  return b;
}

function toolRound(b: SessionBuilder, rnd: Random): void {
  const name = rnd.pick(TOOLS);
  const denied = (name === "read" || name === "grep") && rnd.chance(0.3);
  const details = denied
    ? denialDetails(rnd.pick(["/p/gen", "/p/out"]))
    : name === "edit" || name === "write"
      ? { path: "/p/src/a.ts", mutated: true }
      : name.startsWith("app_")
        ? { status: rnd.pick(["passed", "failed", "no_tests"]), testsRun: rnd.int(3) }
        : { path: "/p/src/a.ts" };
  b.toolRound(name, { path: "x" }, denied ? "denied" : "ok", details, denied || rnd.chance(0.1));
}

/** The details of a guarded tool's denial under a `.context-exclude` marker in `scope`. */
export function denialDetails(scope: string) {
  return {
    code: "CONTEXT_ACCESS_DENIED",
    status: "excluded",
    blocked: true,
    retryable: false,
    scope,
    rule: "marker",
    path: "/p/gen/x",
  };
}

function pathIds(b: SessionBuilder): string[] {
  const byId = new Map(b.entries.map((e) => [e.id, e]));
  const out: string[] = [];
  let cursor = b.leafId;
  while (cursor !== null) {
    out.push(cursor);
    cursor = byId.get(cursor)?.parentId ?? null;
  }
  return out.reverse();
}
