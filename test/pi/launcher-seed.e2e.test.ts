import "../helpers/faux-env.js";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { convertToLlm } from "@mariozechner/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { KIT, RECOVERED_PREFIX } from "../../reducers/contract/kit-entries.js";
import { cleanupCliSandboxes, createCliSandbox, runNodeCli } from "../helpers/faux-cli.js";
import { expectViewsReproduceRequests } from "../helpers/recorded-requests.js";
import { SCHOOL_RECORDS, stalledSchoolSession } from "../synth/school-session.js";

const ENTRY = join(import.meta.dirname, "../helpers/pi-context-faux.mjs");
const PROJECT = {
  "models/school-service.xml": "<model name='school-service'><object name='grade'/><!-- eleven objects --></model>\n",
  "docs/application-guide.md": "# Application guide\nEnrollment states: applied, admitted, enrolled, withdrawn.\n",
};

afterAll(() => cleanupCliSandboxes());

const markers = (entries: Record<string, unknown>[]) =>
  entries.filter((e) => e.type === "custom_message" && e.customType === KIT.recoveryMarker);

describe("pi-context resumes the seed's stalled session (97 records) from one prompt", () => {
  it("recovers once, reads permitted files, exits 0 and keeps the original bytes; a new process continues without recovery", async () => {
    const sandbox = createCliSandbox({ files: PROJECT });
    const file = join(sandbox.root, "stalled.jsonl");
    writeFileSync(file, stalledSchoolSession(sandbox.cwd).toJsonl());
    const original = readFileSync(file);
    expect(original.toString("utf8").trimEnd().split("\n")).toHaveLength(SCHOOL_RECORDS);

    const first = await runNodeCli({
      entry: ENTRY,
      sandbox,
      timeoutMs: 60_000,
      args: [
        "--model",
        "faux/faux-1",
        "--session",
        file,
        "-p",
        "Using the eleven-object model, describe the business scenarios.",
      ],
      script: [
        { text: "Reading the model.", toolCalls: [{ name: "read", args: { path: "models/school-service.xml" } }] },
        { text: "And the guide.", toolCalls: [{ name: "read", args: { path: "docs/application-guide.md" } }] },
        { text: "Scenario analysis: enrollment, timetabling, grading, withdrawal." },
      ],
    });
    expect(first.stderr).not.toMatch(/context-kit\]/);
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toContain("Scenario analysis");
    const after = readFileSync(file);
    expect(after.subarray(0, original.length).equals(original)).toBe(true);
    expect(markers(first.entries())).toHaveLength(1);
    const request = first.requests[0]!;
    expect(request.messages.filter((m) => m.role === "assistant")).toHaveLength(0);
    expect(request.messages.filter((m) => m.role === "user").some((m) => m.text.startsWith(RECOVERED_PREFIX))).toBe(
      true,
    );
    expect(request.messages.some((m) => m.text.includes("never edit files under generated/"))).toBe(true);
    expect(request.tools).not.toContain("bash");
    const results = first.requests[2]!.messages.filter((m) => m.role === "toolResult");
    expect(results.map((m) => m.isError)).toEqual([false, false]);
    expect(results[0]!.text).toContain("school-service");

    const second = await runNodeCli({
      entry: ENTRY,
      sandbox,
      timeoutMs: 60_000,
      args: ["--model", "faux/faux-1", "--session", file, "-p", "Which enrollment states exist?"],
      script: [{ text: "Applied, admitted, enrolled and withdrawn." }],
    });
    expect(second.exitCode).toBe(0);
    expect(markers(second.entries())).toHaveLength(1);
    expect(readFileSync(file).subarray(0, after.length).equals(after)).toBe(true);
    expect(
      second.requests[0]!.messages.some((m) => m.role === "assistant" && m.text.includes("Scenario analysis")),
    ).toBe(true);
    expect(expectViewsReproduceRequests(file, [...first.requests, ...second.requests], convertToLlm as never)).toBe(4);
  }, 120_000);
});
