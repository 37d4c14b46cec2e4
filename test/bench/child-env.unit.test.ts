import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { childEnv, droppedEnv } from "../../bench/child-env.js";

const saved = process.env.NODE_EXTRA_CA_CERTS;
afterEach(() => {
  if (saved === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
  else process.env.NODE_EXTRA_CA_CERTS = saved;
});

const seenByChild = (env: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, ["-e", "process.stdout.write(JSON.stringify(process.env))"], { env, encoding: "utf8" });

describe("the timed children's environment", () => {
  it("given NODE_EXTRA_CA_CERTS set, then a child started with it lacks only that variable, and the run names it", () => {
    process.env.NODE_EXTRA_CA_CERTS = "/nonexistent/bundle.pem";
    process.env.CK_BENCH_PROBE = "kept";
    const child = JSON.parse(seenByChild(childEnv()).stdout) as Record<string, string>;
    delete process.env.CK_BENCH_PROBE;
    expect(child.NODE_EXTRA_CA_CERTS).toBeUndefined();
    expect(child.CK_BENCH_PROBE).toBe("kept");
    expect(droppedEnv()).toEqual(["NODE_EXTRA_CA_CERTS"]);
  });

  it("given it unset, then nothing is said to be left out", () => {
    delete process.env.NODE_EXTRA_CA_CERTS;
    expect(droppedEnv()).toEqual([]);
  });
});
