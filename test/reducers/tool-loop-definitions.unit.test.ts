import { describe, expect, it } from "vitest";
import type { KitEvent } from "../../reducers/contract/events.js";
import { toolLoopEpisodes, toolLoopReport } from "../../reducers/tool-loop.js";
import { kitReducer } from "../../src/fold/kit-reducer.js";
import { given } from "../helpers/given.js";
import type { SessionBuilder } from "../synth/session-builder.js";

const kindAt = (build: (b: SessionBuilder) => void) => toolLoopReport(given(build).before.toolLoop)?.kind ?? null;
const softError = (error: string, runId: string) =>
  JSON.stringify({ status: "error", tool: "message", error, runId }, null, 2);
const send = { action: "send", message: "Build finished" };

describe("a run belongs to one user request", () => {
  it("retries the user asked for are not a loop, whatever the kind", () => {
    const curl = (b: SessionBuilder) =>
      b.toolRound("exec", { command: "curl -s http://localhost:3000/health" }, "curl: (7) Failed to connect", {}, true);
    expect(
      kindAt((b) => {
        for (let i = 0; i < 4; i++) {
          b.user("try checking it");
          curl(b);
          b.assistant("The service does not answer; it may be down.");
        }
      }),
    ).toBeNull();
    expect(
      kindAt((b) => {
        b.user("check the service");
        for (let i = 0; i < 3; i++) curl(b);
      }),
    ).toBe("repeated-failure");
  });
});

describe("soft failures", () => {
  it('a {"status":"error"} result with isError false fails; the same error three times is a repeated failure', () => {
    expect(
      kindAt((b) => {
        for (let i = 0; i < 3; i++) b.toolRound("message", send, softError("Action send requires a target.", `r${i}`));
      }),
    ).toBe("repeated-failure");
    expect(
      kindAt((b) => {
        for (let i = 0; i < 3; i++) b.toolRound("api", { path: "/x" }, JSON.stringify({ ok: false, error: "quota" }));
      }),
    ).toBe("repeated-failure");
    // A file's contents are data, not the read's outcome.
    expect(
      kindAt((b) => {
        for (let i = 0; i < 3; i++) b.toolRound("read", { path: "status.json" }, '{"status": "error"}');
      }),
    ).toBeNull();
    // A changed error is a retry, not the same failure.
    expect(
      kindAt((b) => {
        b.toolRound("message", send, softError("Action send requires a target.", "r1"));
        b.toolRound("message", send, softError("Action send requires a target.", "r2"));
        b.toolRound("message", send, softError("Channel not configured.", "r3"));
      }),
    ).toBeNull();
  });

  it("a result whose only change is a generated id is unchanged", () => {
    expect(
      kindAt((b) => {
        for (let i = 0; i < 4; i++) {
          const id = `${i}f0c2e1a-9b7d-4c1e-8a2b-3d4e5f6a7b8${i}`;
          b.toolRound("message", send, JSON.stringify({ status: "queued", messageId: `m-${i}`, runId: id, seq: i }));
        }
      }),
    ).toBe("repeat");
  });
});

describe("known polls", () => {
  const poll = (b: SessionBuilder, n: number, text = "(no new output)\n\nProcess still running.") => {
    for (let i = 0; i < n; i++) b.toolRound("process", { action: "poll", sessionId: "grand-nexus" }, text);
  };

  it("a poll that waits reaches repeat at ten, not four", () => {
    expect(kindAt((b) => poll(b, 9))).toBeNull();
    expect(kindAt((b) => poll(b, 10))).toBe("repeat");
    // Any tool whose result says there is no new output yet waits too.
    expect(
      kindAt((b) => {
        for (let i = 0; i < 5; i++) b.toolRound("bash", { command: "tail -n 0 log" }, "(no new output)");
      }),
    ).toBeNull();
  });

  it("a poll of something that does not exist is a failure", () => {
    expect(kindAt((b) => poll(b, 3, "No session found for grand-nexus"))).toBe("repeated-failure");
  });
});

describe("calls to a tool the host does not have", () => {
  it("three in a row are a repeated failure whatever their arguments, counted as one call", () => {
    const state = given((b) => {
      for (const query of ["a", "b", "c"]) {
        b.toolRound("tavily_search", { query }, "Tool tavily_search not found", undefined, true);
      }
    }).before;
    expect(toolLoopReport(state.toolLoop)?.kind).toBe("repeated-failure");
    const [episode] = toolLoopEpisodes(state.toolLoop);
    expect(episode?.calls).toHaveLength(1);
    expect(episode?.wastedCalls).toBe(2);
    expect(
      kindAt((b) => {
        b.toolRound("tavily_search", { query: "a" }, "Tool tavily_search not found", undefined, true);
        b.toolRound("web_search", { query: "a" }, "Tool web_search not found", undefined, true);
        b.toolRound("tavily_search", { query: "b" }, "Tool tavily_search not found", undefined, true);
      }),
    ).toBeNull();
  });
});

describe("progress is real change", () => {
  const wrote = { mutated: true };
  const write = (b: SessionBuilder, content: string) =>
    b.toolRound("write", { path: "a.ts", content }, "Successfully wrote a.ts", wrote);

  it("one file written v1, v2, v1, v2, v1, v2 is a ping-pong; v1..v6 is progress", () => {
    const writes = (versions: string[]) => (b: SessionBuilder) => {
      for (const v of versions) write(b, v);
    };
    expect(kindAt(writes(["v1", "v2", "v1", "v2", "v1", "v2"]))).toBe("ping-pong");
    expect(kindAt(writes(["v1", "v2", "v3", "v4", "v5", "v6"]))).toBeNull();
  });

  it("an edit and its reverse, three times each, is a ping-pong", () => {
    const edit = (b: SessionBuilder, from: string, to: string) =>
      b.toolRound("edit", { path: "a.ts", edits: [{ oldText: from, newText: to }] }, "Edited a.ts", wrote);
    expect(
      kindAt((b) => {
        for (let i = 0; i < 3; i++) {
          edit(b, "const a = 1", "const a = 2");
          edit(b, "const a = 2", "const a = 1");
        }
      }),
    ).toBe("ping-pong");
  });

  it("a write of the same content neither breaks nor resets a run", () => {
    expect(
      kindAt((b) => {
        write(b, "v1");
        b.toolRound("bash", { command: "npm test" }, "Tests: 3 passed");
        b.toolRound("bash", { command: "npm test" }, "Tests: 3 passed");
        write(b, "v1");
        b.toolRound("bash", { command: "npm test" }, "Tests: 3 passed");
        b.toolRound("bash", { command: "npm test" }, "Tests: 3 passed");
      }),
    ).toBe("repeat");
    expect(
      kindAt((b) => {
        b.toolRound("bash", { command: "npm test" }, "Tests: 3 passed");
        b.toolRound("bash", { command: "npm test" }, "Tests: 3 passed");
        write(b, "v2");
        b.toolRound("bash", { command: "npm test" }, "Tests: 3 passed");
        b.toolRound("bash", { command: "npm test" }, "Tests: 3 passed");
      }),
    ).toBeNull();
  });

  it("a write then the same failing test, over and over, is a loop", () => {
    expect(
      kindAt((b) => {
        for (let i = 0; i < 3; i++) {
          write(b, "export const a = 2;");
          b.toolRound("bash", { command: "npm test" }, "Tests: 1 failed", undefined, true);
        }
      }),
    ).toBe("repeated-failure");
  });
});

describe("host echoes", () => {
  it("an OpenClaw delivery-mirror entry changes nothing in the tool-loop state", () => {
    const before = given((b) => {
      const call = b.assistant("", [{ name: "read", args: { path: "a.ts" } }]);
      b.toolResult(b.toolCallId(call), "read", "x");
    }).before;
    const mirror: KitEvent = {
      kind: "assistant",
      entryId: "mirror-1",
      text: "Done.",
      toolCalls: [{ id: "c1", name: "read", args: { path: "b.ts" } }],
      stopReason: "stop",
      provider: "openclaw",
      model: "delivery-mirror",
    };
    expect(kitReducer.evolve(before, mirror).toolLoop).toBe(before.toolLoop);
  });
});

describe("episodes along a branch", () => {
  it("reports an escaped loop and the loop the branch ends in, with the wasted calls", () => {
    const state = given((b) => {
      b.user("fix the build");
      for (let i = 0; i < 5; i++) b.toolRound("read", { path: "missing.ts" }, "ENOENT: missing.ts", undefined, true);
      b.toolRound("ls", { path: "." }, "a.ts");
      for (let i = 0; i < 3; i++) b.toolRound("read", { path: "a.ts" }, "x");
      b.user("go on");
      for (let i = 0; i < 4; i++) b.toolRound("grep", { pattern: "TODO" }, "a.ts:1: TODO");
    }).before;
    const episodes = toolLoopEpisodes(state.toolLoop);
    expect(episodes.map((e) => [e.kind, e.callCount, e.wastedCalls, e.atLeaf])).toEqual([
      ["repeated-failure", 5, 4, false],
      ["repeat", 4, 3, true],
    ]);
    expect(episodes[0]?.entryIds).toHaveLength(10);
  });

  it("an episode that ends at a user message is escaped once a call follows", () => {
    const g = given((b) => {
      for (let i = 0; i < 4; i++) b.toolRound("read", { path: "a.ts" }, "x");
      b.user("that is the same output");
    });
    expect(toolLoopEpisodes(g.before.toolLoop).map((e) => e.atLeaf)).toEqual([true]);
    g.when((b) => b.toolRound("read", { path: "a.ts" }, "x")).then((state) => {
      expect(toolLoopEpisodes(state.toolLoop).map((e) => e.atLeaf)).toEqual([false]);
    });
  });
});
