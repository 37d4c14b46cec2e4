import { describe, expect, it } from "vitest";
import type { CheckOutcome } from "../../reducers/contract/kit-entries.js";
import { MAX_ROUNDS, missingChecks } from "../../reducers/verification.js";
import { completionReport } from "../../src/kit/host-messages.js";
import { given } from "../helpers/given.js";
import type { SessionBuilder } from "../synth/session-builder.js";

/**
 * The completion-verification rules not covered by verification.unit.test.ts, one given/when/then each: zero executed
 * tests, checks already attempted, failures, what makes a revision, and the round budget per user request.
 */

const edit = (b: SessionBuilder) =>
  b.toolRound(
    "edit",
    { path: "src/a.ts", edits: [{ oldText: "a", newText: "b" }] },
    "Successfully replaced 1 block(s) in src/a.ts.",
    { path: "/p/src/a.ts", mutated: true },
  );

const check = (b: SessionBuilder, name: "app_build" | "app_test", details: unknown, isError = false) =>
  b.toolRound(name, {}, `${name}: result`, details, isError);

const report = (b: SessionBuilder, revision: number, round: number, checks: CheckOutcome[]) => {
  const m = completionReport({ requestId: null, revision, round, checks });
  return b.customMessage(m.customType, m.content, m.details);
};
const passedBoth: CheckOutcome[] = [
  { name: "app_build", status: "passed", by: "kit", summary: "ok" },
  { name: "app_test", status: "passed", by: "kit", summary: "ok", testsRun: 2 },
];

describe("zero executed tests establish no coverage", () => {
  it("given an edit, when the model's app_test ran no test, then it is recorded as no_tests and not owed again", () => {
    given((b) => {
      b.user("fix");
      edit(b);
    })
      .when((b) => check(b, "app_test", { check: "app_test", status: "no_tests", exitCode: 0, testsRun: 0 }))
      .then((state) => {
        expect(state.verification.checks.app_test).toMatchObject({ status: "no_tests", testsRun: 0, by: "model" });
        expect(missingChecks(state.verification)).toEqual(["app_build"]);
      });
  });

  it("given an edit, when a host's app_test says passed but ran 0 tests, then it is no_tests, not a pass", () => {
    given((b) => {
      b.user("fix");
      edit(b);
    })
      .when((b) => check(b, "app_test", { status: "passed", testsRun: 0 }))
      .then((state) => expect(state.verification.checks.app_test?.status).toBe("no_tests"));
  });

  it("given an edit, when a completion report says app_test passed with 0 tests, then the record is no_tests", () => {
    given((b) => {
      b.user("fix");
      edit(b);
    })
      .when((b) =>
        report(b, 1, 1, [
          { name: "app_build", status: "passed", by: "kit", summary: "ok" },
          { name: "app_test", status: "passed", by: "kit", summary: "ok", testsRun: 0 },
        ]),
      )
      .then((state) => {
        expect(state.verification.checks.app_test).toMatchObject({ status: "no_tests", testsRun: 0, by: "kit" });
        expect(state.verification.checks.app_build?.status).toBe("passed");
      });
  });

  it("given an edit, when app_test passed with tests, or a build reports 0 tests, then nothing is relabelled", () => {
    given((b) => {
      b.user("fix");
      edit(b);
    })
      .when((b) => {
        check(b, "app_test", { status: "passed", testsRun: 3 });
        check(b, "app_build", { status: "passed", testsRun: 0 });
      })
      .then((state) => {
        expect(state.verification.checks.app_test?.status).toBe("passed");
        expect(state.verification.checks.app_build?.status).toBe("passed");
      });
  });
});

describe("checks already attempted for the current revision are not repeated", () => {
  it("given an edit, when the model ran both checks (one failing), then nothing is owed", () => {
    given((b) => {
      b.user("fix");
      edit(b);
    })
      .when((b) => {
        check(b, "app_build", { status: "failed", exitCode: 2 });
        check(b, "app_test", { status: "passed", testsRun: 5 });
      })
      .then((state) => {
        expect(missingChecks(state.verification)).toEqual([]);
        expect(state.verification.checks.app_build).toMatchObject({ status: "failed", revision: 1, by: "model" });
      });
  });

  it("given an edit, when the model's check call errored without details, then it counts as an attempted failure", () => {
    given((b) => {
      b.user("fix");
      edit(b);
    })
      .when((b) => check(b, "app_build", undefined, true))
      .then((state) => {
        expect(state.verification.checks.app_build).toMatchObject({ status: "failed", by: "model" });
        expect(missingChecks(state.verification)).toEqual(["app_test"]);
      });
  });

  it("given an edit, when the assistant only claims it ran the checks, then both are still owed", () => {
    given((b) => {
      b.user("fix");
      edit(b);
    })
      .when((b) => b.assistant("I ran app_build and app_test: everything passes."))
      .then((state) => expect(missingChecks(state.verification)).toEqual(["app_build", "app_test"]));
  });

  it("given an edit, when an app_test call has no result yet, then app_test is still owed", () => {
    given((b) => {
      b.user("fix");
      edit(b);
    })
      .when((b) => b.assistant("Running the tests.", [{ name: "app_test", args: {} }]))
      .then((state) => expect(missingChecks(state.verification)).toEqual(["app_build", "app_test"]));
  });

  it("given checks the model ran before its edit, when the edit lands, then they are owed again", () => {
    given((b) => {
      b.user("fix");
      check(b, "app_build", { status: "passed" });
      check(b, "app_test", { status: "passed", testsRun: 2 });
    })
      .when((b) => edit(b))
      .then((state, before) => {
        expect(before.verification.checks.app_test?.revision).toBe(0);
        expect(missingChecks(state.verification)).toEqual(["app_build", "app_test"]);
      });
  });

  it("given a second edit, when a report for the earlier revision arrives, then it satisfies nothing but uses a round", () => {
    given((b) => {
      b.user("fix");
      edit(b);
      edit(b);
    })
      .when((b) => report(b, 1, 1, passedBoth))
      .then((state) => {
        expect(state.verification.revision).toBe(2);
        expect(state.verification.checks).toEqual({});
        expect(missingChecks(state.verification)).toEqual(["app_build", "app_test"]);
        expect(state.verification.roundsThisRequest).toBe(1);
      });
  });
});

describe("failures stay failures", () => {
  it("given a failed app_test, when the assistant says the tests pass, then the record still says failed", () => {
    given((b) => {
      b.user("fix");
      edit(b);
      check(b, "app_test", { status: "failed", testsRun: 4, exitCode: 1 });
    })
      .when((b) => b.assistant("All tests pass now."))
      .then((state) => {
        expect(state.verification.checks.app_test).toMatchObject({ status: "failed", testsRun: 4 });
        expect(missingChecks(state.verification)).toEqual(["app_build"]);
      });
  });

  it("given an edit, when a check result has the error flag but claims passed, then it is failed", () => {
    given((b) => {
      b.user("fix");
      edit(b);
    })
      .when((b) => check(b, "app_test", { status: "passed", testsRun: 1 }, true))
      .then((state) => expect(state.verification.checks.app_test?.status).toBe("failed"));
  });

  it("given an edit, when the kit's check could not run, then it is recorded as error and not owed again", () => {
    given((b) => {
      b.user("fix");
      edit(b);
    })
      .when((b) =>
        report(b, 1, 1, [
          { name: "app_build", status: "error", by: "kit", summary: "spawn npm ENOENT" },
          { name: "app_test", status: "failed", by: "kit", summary: "1 failing", testsRun: 1 },
        ]),
      )
      .then((state) => {
        expect(state.verification.checks.app_build).toMatchObject({ status: "error", by: "kit" });
        expect(state.verification.checks.app_test).toMatchObject({ status: "failed", by: "kit" });
        expect(missingChecks(state.verification)).toEqual([]);
      });
  });

  it("given a failed kit check, when the model really re-runs it for the same revision and it passes, then the new result counts", () => {
    given((b) => {
      b.user("fix");
      edit(b);
      report(b, 1, 1, [
        { name: "app_build", status: "passed", by: "kit", summary: "ok" },
        { name: "app_test", status: "failed", by: "kit", summary: "flaky", testsRun: 1 },
      ]);
    })
      .when((b) => check(b, "app_test", { status: "passed", testsRun: 1 }))
      .then((state) => {
        expect(state.verification.checks.app_test).toMatchObject({ status: "passed", by: "model", revision: 1 });
        expect(state.verification.revision).toBe(1);
      });
  });
});

describe("a revision per successful write/edit only", () => {
  it("given a request, when two edits and a write succeed, then the revision is 3", () => {
    given((b) => b.user("fix"))
      .when((b) => {
        edit(b);
        edit(b);
        b.toolRound("write", { path: "src/b.ts", content: "x" }, "Wrote src/b.ts.", {
          path: "/p/src/b.ts",
          mutated: true,
        });
      })
      .then((state) => {
        expect(state.verification.revision).toBe(3);
        expect(state.verification.mutationsThisRequest).toBe(3);
      });
  });

  it("given a request, when a write is denied with the error flag, then nothing changes", () => {
    given((b) => b.user("fix"))
      .when((b) =>
        b.toolRound(
          "write",
          { path: "generated/a.ts", content: "x" },
          "Access denied.",
          { status: "excluded", blocked: true, retryable: false, code: "CONTEXT_ACCESS_DENIED" },
          true,
        ),
      )
      .then((state, before) => expect(state.verification).toEqual(before.verification));
  });

  it("given a request, when a guarded edit failed but its result lacks the error flag, then it is still no mutation", () => {
    given((b) => b.user("fix"))
      .when((b) => {
        b.toolRound("edit", { path: "src/a.ts", edits: [] }, "Could not find the old text.", {
          code: "TOOL_INPUT_ERROR",
          reason: "EDIT_NOT_FOUND",
          retryable: false,
        });
        b.toolRound("write", { path: "generated/a.ts", content: "x" }, "Access denied.", {
          status: "excluded",
          blocked: true,
          retryable: false,
          code: "CONTEXT_ACCESS_DENIED",
        });
        b.toolRound("write", { path: "src/a.ts", content: "x" }, "Unchanged.", { path: "/p/src/a.ts", mutated: false });
      })
      .then((state) => {
        expect(state.verification.revision).toBe(0);
        expect(missingChecks(state.verification)).toEqual([]);
      });
  });

  it("given a request, when a write/edit without the kit's details succeeds (the host's own tool), then it counts", () => {
    given((b) => b.user("fix"))
      .when((b) => {
        b.toolRound("edit", { path: "a.ts" }, "Successfully replaced text.", { diff: "-a\n+b", firstChangedLine: 1 });
        b.toolRound("write", { path: "b.ts", content: "x" }, "Wrote b.ts.");
      })
      .then((state) => expect(state.verification.revision).toBe(2));
  });

  it("given a request, when only reads, searches, checks and other host tools succeed, then the revision stays", () => {
    given((b) => b.user("fix"))
      .when((b) => {
        for (const name of ["read", "grep", "find", "ls", "format", "write_notes"]) {
          b.toolRound(name, { path: "src" }, "ok", { path: "/p/src" });
        }
        check(b, "app_build", { status: "passed" });
      })
      .then((state) => {
        expect(state.verification.revision).toBe(0);
        expect(state.verification.mutationsThisRequest).toBe(0);
        expect(missingChecks(state.verification)).toEqual([]);
      });
  });
});

describe("rounds per user request", () => {
  it("given two reports in one request, when host messages and replies follow, then the request has used two rounds", () => {
    given((b) => {
      b.user("fix");
      edit(b);
      report(b, 1, 1, passedBoth);
      edit(b);
      report(b, 2, 2, passedBoth);
    })
      .when((b) => {
        b.customMessage("test/host-nudge", "Continue.");
        b.assistant("Both rounds passed.");
      })
      .then((state) => {
        expect(state.verification.roundsThisRequest).toBe(2);
        expect(MAX_ROUNDS).toBe(3);
      });
  });

  it("given a verified edit, when a new user request only reads, then rounds restart and nothing is owed; an edit owes both", () => {
    const g = given((b) => {
      b.user("fix");
      edit(b);
      report(b, 1, 1, passedBoth);
    });
    g.when((b) => {
      b.user("what changed?");
      b.toolRound("read", { path: "src/a.ts" }, "code", { path: "/p/src/a.ts" });
    }).then((state) => {
      expect(state.verification).toMatchObject({ revision: 1, roundsThisRequest: 0, mutationsThisRequest: 0 });
      expect(state.verification.checks.app_test?.status).toBe("passed");
      expect(missingChecks(state.verification)).toEqual([]);
    });
    g.when((b) => edit(b)).then((state) => {
      expect(state.verification).toMatchObject({ revision: 2, roundsThisRequest: 0, mutationsThisRequest: 1 });
      expect(missingChecks(state.verification)).toEqual(["app_build", "app_test"]);
    });
  });

  it("given rounds on one branch, when the session moves to a sibling branch of the same request, then they do not count", () => {
    let fork = "";
    given((b) => {
      b.user("fix");
      fork = edit(b).result;
      report(b, 1, 1, passedBoth);
      edit(b);
      report(b, 2, 2, passedBoth);
    })
      .when((b) => {
        b.at(fork);
        b.assistant("Trying another approach.");
      })
      .then((state, before) => {
        expect(before.verification.roundsThisRequest).toBe(2);
        expect(state.verification).toMatchObject({ revision: 1, roundsThisRequest: 0, checks: {} });
        expect(missingChecks(state.verification)).toEqual(["app_build", "app_test"]);
      });
  });
});
