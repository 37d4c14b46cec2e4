import "../helpers/faux-env.js";
import { afterAll, describe, expect, it } from "vitest";
import { KIT, TOOL_LOOP_PREFIX, TOOL_LOOP_REFUSED, TOOL_LOOP_STOP_CODE } from "../../reducers/contract/kit-entries.js";
import { createKitExtension } from "../../src/pi/kit-extension.js";
import { cleanupFauxHarnesses, createFauxHarness } from "../helpers/faux-sdk.js";

afterAll(() => cleanupFauxHarnesses());

type Entry = Record<string, unknown> & { type: string; customType?: string; message?: Record<string, unknown> };
const kitMessages = (entries: Record<string, unknown>[], customType: string) =>
  (entries as Entry[]).filter((e) => e.type === "custom_message" && e.customType === customType);
const toolResults = (entries: Record<string, unknown>[]) =>
  (entries as Entry[]).filter((e) => e.type === "message" && e.message?.role === "toolResult").map((e) => e.message);
const readStep = (path: string) => ({ text: "", toolCalls: [{ name: "read", args: { path } }] });

describe("tool-call loops on the real host (0.73, SDK)", () => {
  it("a model repeating a read gets the marker, then the refusal and the stop; no request after it", async () => {
    const h = await createFauxHarness({
      files: { "config.json": '{"port": 8080}\n' },
      extensionFactories: [createKitExtension()],
    });
    h.script([...Array.from({ length: 7 }, () => readStep("config.json")), { text: "unreachable" }]);
    await h.prompt("Which port does config.json set?");

    const entries = h.entries();
    const markers = kitMessages(entries, KIT.toolLoopMarker);
    expect(markers).toHaveLength(1);
    expect(String(markers[0]?.content)).toMatch(new RegExp(`^${TOOL_LOOP_PREFIX}: .*\\(repeat\\)`));
    expect(String(markers[0]?.content)).toContain('read {"path":"config.json"}');
    expect(String(markers[0]?.content)).toContain('Unchanged result: {"port": 8080}');
    // The marker reached the model in the request after the fourth read.
    const fifth = h.requests[4];
    expect(fifth?.messages.some((m) => m.text.startsWith(TOOL_LOOP_PREFIX))).toBe(true);

    const results = toolResults(entries);
    expect(results).toHaveLength(5);
    expect(results.slice(0, 4).every((m) => m?.isError === false)).toBe(true);
    const refused = results[4];
    expect(refused?.isError).toBe(true);
    expect(JSON.stringify(refused?.content)).toContain(`${TOOL_LOOP_REFUSED} (not retryable)`);

    const stops = kitMessages(entries, KIT.toolLoopStop);
    expect(stops).toHaveLength(1);
    expect(String(stops[0]?.content)).toMatch(new RegExp(`^${TOOL_LOOP_STOP_CODE}`));
    expect(stops[0]?.details).toMatchObject({ markerId: markers[0]?.id });
    // The run ended: after the stop, the only reply is the aborted one; no further tool call was made.
    const kinds = (entries as Entry[]).map((e) =>
      e.type === "message" ? `${e.message?.role}:${e.message?.stopReason ?? ""}` : `${e.type}:${e.customType ?? ""}`,
    );
    expect(kinds.slice(-5)).toEqual([
      `custom_message:${KIT.toolLoopMarker}`,
      "assistant:toolUse",
      "toolResult:",
      `custom_message:${KIT.toolLoopStop}`,
      "assistant:aborted",
    ]);
    expect(h.lastText()).not.toBe("unreachable");
    await h.dispose();
  });

  it("a model polling a file that changes gets no marker and no refusal", async () => {
    const h = await createFauxHarness({
      files: { "build.log": "compiled 0 modules\n" },
      extensionFactories: [createKitExtension()],
    });
    const poll = (n: number) => ({ ...readStep("build.log"), files: { "build.log": `compiled ${n} modules\n` } });
    h.script([...Array.from({ length: 6 }, (_, i) => poll(i + 1)), { text: "The build is done." }]);
    await h.prompt("Wait until the build log says it is done.");
    const entries = h.entries();
    expect(kitMessages(entries, KIT.toolLoopMarker)).toHaveLength(0);
    expect(kitMessages(entries, KIT.toolLoopStop)).toHaveLength(0);
    expect(toolResults(entries).every((m) => m?.isError === false)).toBe(true);
    expect(h.lastText()).toBe("The build is done.");
    await h.dispose();
  });
});
