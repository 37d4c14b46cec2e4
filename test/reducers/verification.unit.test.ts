import { describe, expect, it } from "vitest";
import { KIT } from "../../reducers/contract/kit-entries.js";
import { MAX_ROUNDS, missingChecks } from "../../reducers/verification.js";
import { completionReport, verificationIncomplete } from "../../src/kit/host-messages.js";
import { given } from "../helpers/given.js";
import type { SessionBuilder } from "../synth/session-builder.js";

const edit = (b: SessionBuilder, ok = true) =>
  b.toolRound(
    "edit",
    { path: "src/a.ts", edits: [] },
    ok ? "edited" : "no match",
    ok ? { path: "/p/src/a.ts", mutated: true } : undefined,
    !ok,
  );

const report = (b: SessionBuilder, revision: number, round: number) => {
  const m = completionReport({
    requestId: null,
    revision,
    round,
    checks: [
      { name: "app_build", status: "passed", by: "kit", summary: "ok" },
      { name: "app_test", status: "failed", by: "kit", summary: "1 failing", testsRun: 3 },
    ],
  });
  return b.customMessage(m.customType, m.content, m.details);
};

describe("verification", () => {
  it("a successful edit starts a new revision and owes both checks", () => {
    given((b) => b.user("fix the bug"))
      .when((b) => edit(b))
      .then((state) => {
        expect(state.verification.revision).toBe(1);
        expect(missingChecks(state.verification)).toEqual(["app_build", "app_test"]);
      });
  });

  it("a failed edit and read-only work owe nothing", () => {
    given((b) => b.user("fix the bug"))
      .when((b) => {
        edit(b, false);
        b.toolRound("read", { path: "src/a.ts" }, "code", { path: "/p/src/a.ts" });
      })
      .then((state) => {
        expect(state.verification.revision).toBe(0);
        expect(missingChecks(state.verification)).toEqual([]);
      });
  });

  it("a check the model ran for the current revision is not owed again, whatever its outcome", () => {
    given((b) => {
      b.user("fix");
      edit(b);
    })
      .when((b) => b.toolRound("app_test", {}, "1 failed", { check: "app_test", status: "failed", testsRun: 4 }, true))
      .then((state) => {
        expect(state.verification.checks.app_test).toMatchObject({
          status: "failed",
          revision: 1,
          by: "model",
          testsRun: 4,
        });
        expect(missingChecks(state.verification)).toEqual(["app_build"]);
      });
  });

  it("a later edit invalidates both checks again", () => {
    given((b) => {
      b.user("fix");
      edit(b);
      b.toolRound("app_build", {}, "ok", { status: "passed" });
      b.toolRound("app_test", {}, "ok", { status: "passed", testsRun: 2 });
    })
      .when((b) => edit(b))
      .then((state, before) => {
        expect(missingChecks(before.verification)).toEqual([]);
        expect(state.verification.revision).toBe(2);
        expect(state.verification.checks).toEqual({});
        expect(missingChecks(state.verification)).toEqual(["app_build", "app_test"]);
      });
  });

  it("a completion report records the kit's results and uses a round; only a real user message resets rounds", () => {
    const g = given((b) => {
      b.user("fix");
      edit(b);
      report(b, 1, 1);
      b.customMessage("other-extension/note", "not a request");
    });
    expect(g.before.verification.roundsThisRequest).toBe(1);
    expect(g.before.verification.checks.app_test).toMatchObject({ status: "failed", by: "kit", testsRun: 3 });
    g.when((b) => b.user("thanks, now something else")).then((state) => {
      expect(state.verification.roundsThisRequest).toBe(0);
      expect(state.verification.revision).toBe(1);
      expect(missingChecks(state.verification)).toEqual([]);
    });
  });

  it("VERIFICATION_INCOMPLETE marks the request incomplete until the next user message", () => {
    given((b) => {
      b.user("fix");
      for (let round = 1; round <= MAX_ROUNDS; round++) {
        edit(b);
        report(b, round, round);
      }
    })
      .when((b) => {
        const m = verificationIncomplete({ requestId: null, revision: 3, missing: ["app_test"], rounds: MAX_ROUNDS });
        b.customMessage(m.customType, m.content, m.details);
      })
      .then((state) => {
        expect(state.verification.roundsThisRequest).toBe(MAX_ROUNDS);
        expect(state.verification.incomplete).toBe(true);
      });
  });

  it("a report that does not validate changes nothing", () => {
    given((b) => {
      b.user("fix");
      edit(b);
    })
      .when((b) => b.customMessage(KIT.completionReport, "Completion report", { revision: "one" }))
      .then((state, before) => expect(state.verification).toEqual(before.verification));
  });
});

describe("checkResultOf: one parser for checks the model ran and checks the kit ran", () => {
  it("given a reported status, a flagged error, or no known status, then passed, failed, error", async () => {
    const { checkResultOf } = await import("../../reducers/verification.js");
    expect(checkResultOf("app_build", false, { status: "passed" })).toEqual({ status: "passed" });
    expect(checkResultOf("app_test", false, { status: "passed", testsRun: 0 })).toEqual({
      status: "no_tests",
      testsRun: 0,
    });
    expect(checkResultOf("app_build", true, { status: "passed" })).toEqual({ status: "failed" });
    expect(checkResultOf("app_build", false, { status: "fine" })).toEqual({ status: "error" });
    expect(checkResultOf("app_build", false, undefined)).toEqual({ status: "error" });
  });
});
