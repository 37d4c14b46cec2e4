// First import: sets PI_CODING_AGENT_DIR / PI_OFFLINE before anything loads Pi.
import "../helpers/faux-env.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionFactory } from "@mariozechner/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupCliSandboxes, createCliSandbox, runPi } from "../helpers/faux-cli.js";
import {
  cleanupFauxHarnesses,
  createFauxHarness,
  type FauxHarness,
  fauxAborted,
  fauxError,
  requestText,
} from "../helpers/faux-sdk.js";

const MARKER = "EPHEMERAL-MARKER-7f3a";
const QUESTION = "What does hello.txt say?";
const READ_HELLO = { text: "Let me read it.", toolCalls: [{ name: "read", args: { path: "hello.txt" } }] };

afterAll(() => {
  cleanupFauxHarnesses();
  cleanupCliSandboxes();
});

type Entry = Record<string, unknown> & { message?: { role?: string; stopReason?: string; errorMessage?: string } };
const kinds = (entries: Record<string, unknown>[]) =>
  (entries as Entry[]).map((e) => (e.type === "message" ? `message:${e.message?.role}` : String(e.type)));

describe("in-process SDK harness (real AgentSession, faux provider)", () => {
  it("runs a built-in read, hides a context-only marker from the file, settles slow handlers, resumes", async () => {
    const seen = { shutdown: 0, contextCalls: 0 };
    const ext: ExtensionFactory = (pi) => {
      pi.on("context", (event) => {
        seen.contextCalls++;
        const marker = { role: "custom" as const, customType: "test-marker", content: MARKER, display: false };
        return { messages: [...event.messages, { ...marker, timestamp: Date.now() }] };
      });
      // A slow handler: Pi's prompt() can resolve before it finishes; h.prompt() must not.
      pi.on("agent_end", async () => {
        await new Promise((r) => setTimeout(r, 150));
        pi.appendEntry("after-agent-end", { ok: true });
      });
      pi.on("session_shutdown", () => {
        seen.shutdown++;
      });
    };

    const h1 = await createFauxHarness({ files: { "hello.txt": "hi\n" }, extensionFactories: [ext] });
    h1.script([READ_HELLO, { text: "The file says hi." }]);
    await h1.prompt(QUESTION);

    expect(h1.extensionErrors).toEqual([]);
    expect(h1.lastText()).toBe("The file says hi.");
    expect(h1.requests).toHaveLength(2);
    const [first, second] = h1.requests as [(typeof h1.requests)[0], (typeof h1.requests)[0]];
    expect(first.tools).toContain("read");
    expect(first.roles).toEqual(["user", "user"]); // the question, then the marker (custom → user)
    expect(first.messages[0]?.text).toBe(QUESTION);
    expect(second.roles).toEqual(["user", "assistant", "toolResult", "user"]);
    const toolResult = second.messages[2];
    expect(toolResult?.toolName).toBe("read");
    expect(toolResult?.isError).toBe(false);
    expect(toolResult?.text).toContain("hi");
    expect(second.messages[1]?.toolCalls?.[0]).toMatchObject({ name: "read", args: { path: "hello.txt" } });
    expect(requestText(second)).toContain(MARKER);
    expect(seen.contextCalls).toBe(2);

    // The file: header + entries; the slow agent_end handler's entry is there; the marker is not.
    const file = h1.sessionFile;
    expect(file).toBeDefined();
    expect(kinds(h1.entries())).toEqual([
      "session",
      "model_change",
      "thinking_level_change",
      "message:user",
      "message:assistant",
      "message:toolResult",
      "message:assistant",
      "custom",
    ]);
    expect(readFileSync(file as string, "utf8")).not.toContain(MARKER);

    await h1.dispose();
    expect(seen.shutdown).toBe(1);
    await h1.dispose(); // idempotent
    expect(seen.shutdown).toBe(1);

    // Resume the same file in a fresh harness (no extension): the model sees the whole history.
    const h2 = await createFauxHarness({ sessionFile: file as string, script: [{ text: "Still hi." }] });
    expect(h2.cwd).toBe(h1.cwd);
    expect(h2.sessionFile).toBe(file);
    await h2.prompt("Continue please");
    expect(h2.requests).toHaveLength(1);
    const resumed = h2.requests[0];
    expect(resumed?.roles).toEqual(["user", "assistant", "toolResult", "assistant", "user"]);
    expect(resumed?.messages[0]?.text).toBe(QUESTION);
    expect(resumed?.messages[2]?.text).toContain("hi");
    expect(resumed?.messages[4]?.text).toBe("Continue please");
    expect(requestText(resumed as NonNullable<typeof resumed>)).not.toContain(MARKER);
    const after = kinds(h2.entries());
    expect(after.filter((k) => k === "session")).toHaveLength(1);
    expect(after.slice(-2)).toEqual(["message:user", "message:assistant"]);
    expect(after.length).toBe(10);
    await h2.dispose();
  });

  it("scripts provider errors and aborted replies (scripted and real aborts)", async () => {
    const h = await createFauxHarness({ persist: true });
    const lastAssistant = () => {
      const messages = h.entries() as Entry[];
      return messages.filter((e) => e.message?.role === "assistant").at(-1)?.message;
    };

    h.script([fauxError("boom")]);
    await h.prompt("one");
    expect(lastAssistant()).toMatchObject({ stopReason: "error", errorMessage: "boom" });

    h.script([fauxAborted("partial")]);
    await h.prompt("two");
    expect(lastAssistant()).toMatchObject({ stopReason: "aborted" });

    // A real abort: the reply hangs until the request's signal aborts.
    h.script([{ hang: true }]);
    const running = h.prompt("three");
    await expect.poll(() => h.requests.length, { timeout: 5_000 }).toBe(3);
    await h.session.abort();
    await running;
    expect(lastAssistant()).toMatchObject({ stopReason: "aborted" });

    // Exhausted script: Pi gets the faux provider's own error; the request is still recorded.
    await h.prompt("four");
    expect(h.requests.at(-1)?.step).toBeNull();
    expect(lastAssistant()).toMatchObject({ stopReason: "error", errorMessage: "No more faux responses queued" });
    await h.dispose();
  });

  it("keeps scripts and request logs separate for harnesses alive at the same time", async () => {
    const harnesses: FauxHarness[] = await Promise.all([
      createFauxHarness({ persist: false, script: [{ text: "from A" }] }),
      createFauxHarness({ persist: false, script: [{ text: "from B" }] }),
    ]);
    const [a, b] = harnesses as [FauxHarness, FauxHarness];
    await Promise.all([b.prompt("to B"), a.prompt("to A")]);
    expect(a.lastText()).toBe("from A");
    expect(b.lastText()).toBe("from B");
    expect(a.requests.map((r) => r.messages.at(-1)?.text)).toEqual(["to A"]);
    expect(b.requests.map((r) => r.messages.at(-1)?.text)).toEqual(["to B"]);
    await Promise.all(harnesses.map((x) => x.dispose()));
  });
});

describe("real pi CLI subprocess (faux -e extension)", () => {
  it("-p runs a scripted read, logs requests, writes the session; --session resumes it", async () => {
    const sb = createCliSandbox({ files: { "hello.txt": "hi\n" } });
    const sessionPath = join(sb.root, "s.jsonl");

    const r1 = await runPi({
      sandbox: sb,
      script: [READ_HELLO, { text: "It says hi." }],
      args: ["--session", sessionPath, "-p", QUESTION],
    });
    expect(r1.stderr).toBe("");
    expect(r1.exitCode).toBe(0);
    expect(r1.stdout.trim()).toBe("It says hi.");
    expect(r1.requests).toHaveLength(2);
    expect(r1.requests[0]?.roles).toEqual(["user"]);
    expect(r1.requests[0]?.tools).toContain("read");
    expect(r1.requests[1]?.roles).toEqual(["user", "assistant", "toolResult"]);
    expect(r1.requests[1]?.messages[2]).toMatchObject({ toolName: "read", isError: false });
    expect(r1.requests[1]?.messages[2]?.text).toContain("hi");
    expect(r1.sessionFile).toBe(sessionPath);
    const e1 = r1.entries();
    expect(e1[0]).toMatchObject({ type: "session", version: 3, cwd: sb.cwd });
    expect(kinds(e1)).toEqual([
      "session",
      "model_change",
      "thinking_level_change",
      "message:user",
      "message:assistant",
      "message:toolResult",
      "message:assistant",
    ]);

    const r2 = await runPi({
      sandbox: sb,
      script: [{ text: "Yes, still hi." }],
      args: ["--session", sessionPath, "-p", "Are you sure?"],
    });
    expect(r2.exitCode).toBe(0);
    expect(r2.stdout.trim()).toBe("Yes, still hi.");
    expect(r2.requests).toHaveLength(1);
    expect(r2.requests[0]?.roles).toEqual(["user", "assistant", "toolResult", "assistant", "user"]);
    expect(r2.requests[0]?.messages[0]?.text).toBe(QUESTION);
    expect(r2.requests[0]?.messages[4]?.text).toBe("Are you sure?");
    const k2 = kinds(r2.entries());
    expect(k2.filter((k) => k === "session")).toHaveLength(1);
    expect(k2.slice(0, e1.length)).toEqual(kinds(e1));
    expect(k2.slice(e1.length)).toEqual(["message:user", "message:assistant"]);
  });

  it("exits 1 on a scripted provider error or aborted reply", async () => {
    const sb = createCliSandbox();
    const err = await runPi({ sandbox: sb, script: [fauxError("boom from faux")], args: ["-p", "hello"] });
    expect(err.exitCode).toBe(1);
    expect(err.stderr).toContain("boom from faux");
    expect(err.requests).toHaveLength(1);
    // Without --session, the file is found in the sandbox's agent dir.
    expect(err.sessionFile?.startsWith(join(sb.agentDir, "sessions"))).toBe(true);
    const last = (err.entries() as Entry[]).at(-1)?.message;
    expect(last).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: "boom from faux" });

    const aborted = await runPi({ sandbox: sb, script: [fauxAborted()], args: ["-p", "hello"] });
    expect(aborted.exitCode).toBe(1);
    expect(aborted.sessionFile).not.toBe(err.sessionFile);
  });
});
