import { describe, expect, it } from "vitest";
import { KIT } from "../../reducers/contract/kit-entries.js";
import { missingChecks } from "../../reducers/verification.js";
import { given } from "../helpers/given.js";
import type { SessionBuilder } from "../synth/session-builder.js";

type NestedCall = {
  id: string;
  name: string;
  status: "ok" | "error" | "unfinished";
  arguments?: unknown;
  error?: string;
};

/** A `codemode` call whose result records the calls it made (Pi 0.99+ `nestedCalls`). */
function codemode(b: SessionBuilder, calls: NestedCall[], complete = true) {
  const call = b.assistant("", [{ name: "codemode", args: { code: "…" } }]);
  const id = b.toolCallId(call);
  return b.message({
    role: "toolResult",
    toolCallId: id,
    toolName: "codemode",
    content: [{ type: "text", text: "done" }],
    isError: false,
    timestamp: 1,
    nestedCalls: { calls, complete },
  } as never);
}

const DENIAL = {
  code: "CONTEXT_ACCESS_DENIED",
  status: "excluded",
  blocked: true,
  retryable: false,
  scope: "/p/secret",
  rule: "marker:/p/secret",
  path: "/p/secret/key.txt",
  op: "read",
  target: "secret/key.txt",
};

describe("nested tool calls", () => {
  it("a nested write that succeeded moves the revision; a failed one and a nested read do not", () => {
    given((b) => b.user("refactor"))
      .when((b) =>
        codemode(b, [
          { id: "c/1", name: "read", status: "ok", arguments: { path: "a.ts" } },
          { id: "c/2", name: "write", status: "ok", arguments: { path: "a.ts", content: "x" } },
          { id: "c/3", name: "edit", status: "error", error: "no match" },
        ]),
      )
      .then((state) => {
        expect(state.verification.revision).toBe(1);
        expect(missingChecks(state.verification)).toEqual(["app_build", "app_test"]);
        expect(state.nested).toMatchObject({ calls: 3, failed: 1, unfinished: 0, incompleteRecordIds: [] });
        expect(state.nested.recent.map((c) => [c.tool, c.status, c.parentCallId !== ""])).toEqual([
          ["read", "ok", true],
          ["write", "ok", true],
          ["edit", "error", true],
        ]);
      });
  });

  it("a record the host cut short is kept as incomplete, not guessed", () => {
    let result = "";
    given((b) => b.user("go"))
      .when((b) => {
        result = codemode(b, [{ id: "c/1", name: "write", status: "unfinished" }], false);
      })
      .then((state) => {
        expect(state.verification.revision).toBe(0);
        expect(state.nested.unfinished).toBe(1);
        expect(state.nested.incompleteRecordIds).toEqual([result]);
      });
  });

  it("a nested denial entry counts with the model's own denials of the same rule", () => {
    given((b) => {
      b.user("read the key");
      b.toolRound("read", { path: "secret/key.txt" }, "denied", DENIAL, true);
    })
      .when((b) =>
        b.custom(KIT.nestedDenial, { parentToolCallId: "c", toolCallId: "c/1", toolName: "read", details: DENIAL }),
      )
      .then((state, before) => {
        expect(Object.values(before.denials).map((d) => d.count)).toEqual([1]);
        expect(Object.values(state.denials).map((d) => [d.scope, d.count])).toEqual([["/p/secret", 2]]);
      });
  });

  it("a nested-denial entry without denial details changes nothing", () => {
    given((b) => b.user("go"))
      .when((b) =>
        b.custom(KIT.nestedDenial, { parentToolCallId: "c", toolCallId: "c/1", toolName: "read", details: {} }),
      )
      .then((state, before) => {
        expect(state).toStrictEqual(before);
      });
  });

  it("the same nested call failing with the same error three times is a repeated failure; calls that succeeded never loop", () => {
    const read = { path: "missing.txt" };
    const failing = (id: string) => ({
      id,
      name: "read",
      status: "error" as const,
      arguments: read,
      error: "ENOENT: missing.txt",
    });
    given((b) => b.user("go"))
      .when((b) => codemode(b, [failing("c/1"), failing("c/2"), failing("c/3")]))
      .then((state) => {
        expect(state.toolLoop.loop?.kind).toBe("repeated-failure");
      });
    const ok = (id: string) => ({ id, name: "read", status: "ok" as const, arguments: { path: "a.txt" } });
    given((b) => b.user("go"))
      .when((b) => codemode(b, [ok("c/1"), ok("c/2"), ok("c/3"), ok("c/4"), ok("c/5")]))
      .then((state) => {
        expect(state.toolLoop.loop).toBeNull();
      });
  });
});

describe('calls the host cancelled before they ran (Pi 1.6 "Operation aborted")', () => {
  it("count as neither a failure nor a loop; the same calls with a real result do", () => {
    const cancelled = (b: SessionBuilder) => b.toolRound("ls", { path: "." }, "Operation aborted", {}, true);
    given((b) => b.user("list"))
      .when((b) => {
        for (let i = 0; i < 4; i++) cancelled(b);
      })
      .then((state) => {
        expect(state.toolLoop.loop).toBeNull();
        expect(state.verification.revision).toBe(0);
      });
    given((b) => b.user("list"))
      .when((b) => {
        for (let i = 0; i < 4; i++) b.toolRound("ls", { path: "." }, "Permission denied", {}, true);
      })
      .then((state) => {
        expect(state.toolLoop.loop?.kind).toBe("repeated-failure");
      });
  });
});
