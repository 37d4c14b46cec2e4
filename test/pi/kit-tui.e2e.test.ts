import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupCliSandboxes, FAUX_CLI_EXT, PI_CLI_JS, runNodeCli } from "../helpers/faux-cli.js";
import { HAS_TMUX, kitTuiScenario, project } from "../helpers/kit-tui.js";

const LAUNCHER_FAUX = join(import.meta.dirname, "../helpers/pi-context-faux.mjs");
const KIT_EXTENSION = join(import.meta.dirname, "../../dist/src/pi/kit-extension.js");

afterAll(() => cleanupCliSandboxes());

describe.skipIf(!HAS_TMUX)("the kit in Pi's TUI (0.73)", () => {
  it("pi-context: footer status, /kit, /kit policy, /kit report", async () => {
    await kitTuiScenario({
      tmux: `ck-kit-tui-launcher-${process.pid}`,
      command: [process.execPath, LAUNCHER_FAUX, "--model", "faux/faux-1"],
    });
  }, 150_000);

  it("pi -e: the same with the kit loaded as an extension", async () => {
    await kitTuiScenario({
      tmux: `ck-kit-tui-ext-${process.pid}`,
      command: [
        process.execPath,
        PI_CLI_JS,
        ...["--no-extensions", "--no-skills", "--no-context-files", "--no-prompt-templates", "--no-themes"],
        ...["-e", FAUX_CLI_EXT, "-e", KIT_EXTENSION, "--model", "faux/faux-1"],
      ],
    });
  }, 150_000);
});

describe("the kit outside the TUI", () => {
  it("shows no status text in print mode", async () => {
    const run = await runNodeCli({
      entry: LAUNCHER_FAUX,
      sandbox: project(),
      args: ["--model", "faux/faux-1", "-p", "What is in secret/notes.txt?"],
      script: [
        { text: "Reading.", toolCalls: [{ name: "read", args: { path: "secret/notes.txt" } }] },
        { text: "That folder is excluded." },
      ],
      timeoutMs: 60_000,
    });
    expect(run.stdout).toContain("That folder is excluded.");
    expect(run.stdout + run.stderr).not.toMatch(/kit: protected|verify r\d/);
  }, 60_000);
});
