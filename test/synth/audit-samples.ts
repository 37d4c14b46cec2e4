import { KIT } from "../../reducers/contract/kit-entries.js";
import { completionReport, verificationIncomplete } from "../../src/kit/host-messages.js";
import { SessionBuilder } from "./session-builder.js";

const ROOT = "/home/user/project";

function denial(path: string, scope: string, extra: Record<string, unknown> = {}) {
  return {
    code: "CONTEXT_ACCESS_DENIED",
    status: "excluded",
    blocked: true,
    retryable: false,
    scope,
    rule: `marker:${scope}/.context-exclude`,
    path,
    ...extra,
  };
}

/**
 * Denials on two branches: the first denial shows the marker's guidance, a retry through an alias and another
 * tool only counts; a pruned search is no denial; on the second branch the policy allows the scope again.
 */
export function denialsSession(): SessionBuilder {
  const b = new SessionBuilder({ cwd: ROOT, sessionId: "0b7c2d10-5a4e-4c1b-9e0f-denials00001", seed: 3 });
  b.user("Summarise the generated API client in generated/ and the sources in src/.");
  b.toolRound(
    "read",
    { path: "generated/client.ts" },
    "CONTEXT_ACCESS_DENIED: generated/ is excluded by generated/.context-exclude …",
    denial(`${ROOT}/generated/client.ts`, `${ROOT}/generated`, { guidanceShown: true }),
    true,
  );
  b.toolRound(
    "grep",
    { pattern: "export", path: "./generated/../generated" },
    "CONTEXT_ACCESS_DENIED (previously blocked, 2 attempts in this scope) …",
    denial(`${ROOT}/generated`, `${ROOT}/generated`, { previouslyBlocked: true, scopeCount: 2 }),
    true,
  );
  b.toolRound("grep", { pattern: "export" }, "src/index.ts:1:export function main()", {
    pruned: [`${ROOT}/generated`],
  });
  const fork = b.toolRound("read", { path: "src/index.ts" }, "export function main() {}", {
    path: `${ROOT}/src/index.ts`,
  }).result;
  b.toolRound(
    "read",
    { path: "/etc/passwd" },
    "CONTEXT_ACCESS_DENIED: outside the project",
    { ...denial("/etc/passwd", ROOT), status: "outOfScope", rule: `outside-root:${ROOT}` },
    true,
  );
  b.assistant("src/ holds one entry point; generated/ is excluded by the project, so I did not read it.");
  b.at(fork);
  b.custom(KIT.policyAllowed, { scope: `${ROOT}/generated` });
  b.toolRound("read", { path: "generated/client.ts" }, "export class Client {}", {
    path: `${ROOT}/generated/client.ts`,
  });
  b.assistant("With the marker removed, generated/ holds the API client.");
  return b;
}

/**
 * Verification rounds: an edit owes app_build and app_test; the kit's reports use rounds; a failing test is repaired;
 * the third round ends in VERIFICATION_INCOMPLETE. A second branch does read-only work and owes nothing.
 */
export function verificationSession(): SessionBuilder {
  const b = new SessionBuilder({ cwd: ROOT, sessionId: "0b7c2d10-5a4e-4c1b-9e0f-verify000001", seed: 5 });
  const ask = b.user("Fix the off-by-one error in src/range.ts.");
  const edit = () =>
    b.toolRound(
      "edit",
      { path: "src/range.ts", edits: [{ oldText: "i <= n", newText: "i < n" }] },
      "Edited src/range.ts",
      { path: `${ROOT}/src/range.ts`, mutated: true },
    );
  const report = (revision: number, round: number, test: "passed" | "failed" | "no_tests") => {
    const m = completionReport({
      requestId: ask,
      revision,
      round,
      checks: [
        { name: "app_build", status: "passed", by: "kit", summary: "build ok" },
        {
          name: "app_test",
          status: test,
          by: "kit",
          summary: test === "failed" ? "1 of 4 failed" : "",
          testsRun: test === "no_tests" ? 0 : 4,
        },
      ],
    });
    b.customMessage(m.customType, m.content, m.details);
  };
  edit();
  b.assistant("Fixed the loop bound.");
  report(1, 1, "failed");
  edit();
  b.assistant("Repaired the failing case.");
  report(2, 2, "failed");
  edit();
  b.assistant("Adjusted the test expectation.");
  report(3, 3, "no_tests");
  const m = verificationIncomplete({ requestId: ask, revision: 3, missing: [], rounds: 3 });
  b.customMessage(m.customType, m.content, m.details);
  b.at(ask);
  b.toolRound("read", { path: "src/range.ts" }, "export function range(n) { … }", { path: `${ROOT}/src/range.ts` });
  b.assistant("The loop runs while i <= n, one step too far.");
  return b;
}
