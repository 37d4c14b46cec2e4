import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realSessionsPresent, SHARED_SESSIONS } from "../helpers/shared-sessions.js";
import { CORPUS } from "./loop-corpus.js";

const ROOT = join(import.meta.dirname, "../..");

function train(flag: string) {
  return spawnSync(process.execPath, [join(ROOT, "scripts/train-stall.mjs"), flag], { cwd: ROOT, encoding: "utf8" });
}

/** The models are trained on real replies too, read from the real sessions beside the checkout. */
const realReplies =
  realSessionsPresent(SHARED_SESSIONS, "stall model training") && realSessionsPresent(CORPUS, "stall model training");

describe("the trained stall model", () => {
  it.runIf(realReplies)(
    "has the weights scripts/train-stall.mjs trains from the training sets at the shipped thresholds",
    () => {
      const run = train("--check-weights");
      expect(run.stderr).toContain("the shipped model equals a fresh training");
      expect(run.status).toBe(0);
    },
    // About three minutes on an idle machine; seven when it shares the cores with a training run.
    600_000,
  );

  // The thresholds' cross-validation takes minutes: `npm run eval:stall` runs it.
  it.runIf(realReplies && process.env.STALL_FULL_CHECK === "1")(
    "is what a fresh training makes of the sets, thresholds chosen by cross-validation included",
    () => {
      const run = train("--check");
      expect(run.stderr).toContain("the shipped model equals a fresh training");
      expect(run.stderr).toMatch(/held out by writer/);
      expect(run.status).toBe(0);
    },
    1_200_000,
  );
});
