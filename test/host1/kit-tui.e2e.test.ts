import { afterAll, describe, it } from "vitest";
import { cleanupCliSandboxes } from "../helpers/faux-cli.js";
import { HAS_TMUX, kitTuiScenario } from "../helpers/kit-tui.js";
import { HOST1_ENV, LAUNCHER_FAUX, SKIP_HOST1 } from "./lane.js";

afterAll(() => cleanupCliSandboxes());

describe.skipIf(SKIP_HOST1 || !HAS_TMUX)("the kit in Pi's TUI (1.x)", () => {
  it("pi-context: footer status, /kit, /kit policy, /kit report", async () => {
    await kitTuiScenario({
      tmux: `ck-kit-tui1-launcher-${process.pid}`,
      command: [process.execPath, LAUNCHER_FAUX, "--model", "faux/faux-1"],
      env: HOST1_ENV,
    });
  }, 150_000);
});
