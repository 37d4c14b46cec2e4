import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KIT } from "../../reducers/contract/kit-entries.js";
import { cleanupCliSandboxes, createCliSandbox, readJsonLines, runNodeCli } from "../helpers/faux-cli.js";
import { HOST1, HOST1_ENV, LAUNCHER, SKIP_HOST1 } from "./lane.js";

afterAll(() => cleanupCliSandboxes());

describe.skipIf(SKIP_HOST1)("pi-context --demo on the Pi 1.x line", () => {
  it("runs offline on the host's own faux provider: a denial, one recovery, the answer", async () => {
    const sandbox = createCliSandbox();
    const run = await runNodeCli({ entry: LAUNCHER, sandbox, env: HOST1_ENV, args: ["--demo"], timeoutMs: 90_000 });
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`pi-context demo: ${HOST1!.name} ${HOST1!.version} with pi-context-kit`);
    expect(run.stdout).toMatch(/denied {2}Access denied by host policy: "secrets\/deploy-key\.txt"/);
    expect(run.stdout).toContain("Version 2 ships on Friday. I cannot give you the deploy key");
    const root = readdirSync(sandbox.tmp).find((name) => name.startsWith("pi-context-demo-"));
    const entries = readJsonLines(join(sandbox.tmp, root as string, "demo-session.jsonl"));
    expect(entries.filter((e) => e.customType === KIT.recoveryMarker)).toHaveLength(1);
  }, 120_000);
});
