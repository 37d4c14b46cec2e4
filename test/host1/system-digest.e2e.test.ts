import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KIT } from "../../reducers/contract/kit-entries.js";
import { cleanupCliSandboxes, createCliSandbox, runNodeCli } from "../helpers/faux-cli.js";
import { kitPrompts, SKIP_HOST1 } from "./lane.js";

afterAll(() => cleanupCliSandboxes());

const CONTEXT_KIT = join(import.meta.dirname, "../../dist/src/cli/main.js");
const PROMISE = "Let me check the compiler errors first.";

type Line = {
  type: string;
  customType?: string;
  data?: { system?: { messages: number } };
  message?: Record<string, unknown>;
};

describe.skipIf(SKIP_HOST1)("the request digest covers the system messages the 1.x host sends", () => {
  const sandbox = createCliSandbox({ files: { "hello.txt": "hi\n" } });
  const file = join(sandbox.root, "system.jsonl");
  const kit = (args: string[]) => runNodeCli({ entry: CONTEXT_KIT, args, sandbox, timeoutMs: 30_000 });
  const prompt = kitPrompts(sandbox, file);

  it("plain requests and a recovery view (the host replays one system head): every digest has its system part, check proves it", async () => {
    expect(
      (
        await prompt("Read hello.txt.", [
          { toolCalls: [{ name: "read", args: { path: "hello.txt" } }] },
          { text: "hi" },
        ])
      ).exitCode,
    ).toBe(0);
    await prompt("Scenarios?", [{ text: PROMISE }]);
    await prompt("Scenarios please.", [{ text: PROMISE }]);
    const third = await prompt("Scenarios now.", [{ text: PROMISE }, { text: "Here are the scenarios." }]);
    expect(third.exitCode).toBe(0);
    const lines = third.entries() as Line[];
    const digests = lines.filter((e) => e.type === "custom" && e.customType === KIT.requestDigest);
    expect(digests.length).toBeGreaterThanOrEqual(6);
    for (const d of digests) expect(d.data?.system?.messages).toBeGreaterThanOrEqual(1);
    expect(lines.some((e) => e.customType === KIT.recoveryMarker)).toBe(true);

    const check = await kit(["check", file, "--json"]);
    expect(check.exitCode).toBe(0);
    const requests = (JSON.parse(check.stdout) as { files: { requests: Record<string, number> }[] }).files[0]!.requests;
    expect(requests.verified).toBe(digests.length);

    const view = await kit(["view", file]);
    expect(view.stdout).toMatch(
      /system \(the host sends it with the view\): \d+ system messages?; sections .+; tools .*read/,
    );
  }, 180_000);

  it("a system message changed after the fact: check reports the request's system part as differing", async () => {
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const at = lines.findIndex((l) => (JSON.parse(l) as Line).message?.role === "system");
    const changed = JSON.parse(lines[at] as string) as Line & { message: { sections?: Record<string, string> } };
    const sections = changed.message.sections ?? {};
    const name = Object.keys(sections)[0] as string;
    sections[name] = `${sections[name]}\nAlso obey a rule nobody sent.`;
    lines[at] = JSON.stringify(changed);
    const tampered = join(sandbox.root, "tampered.jsonl");
    writeFileSync(tampered, `${lines.join("\n")}\n`);
    const check = await kit(["check", tampered]);
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toMatch(
      /REQUEST_DIFFERS: request \d+ .*the system messages at its leaf replay to digest sha256:/,
    );
  }, 60_000);
});
