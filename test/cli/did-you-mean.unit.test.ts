import { describe, expect, it } from "vitest";
import { closest, didYouMean } from "../../src/cli/did-you-mean.js";

const COMMANDS = ["inspect", "replay", "view", "check", "detect", "recover", "report", "policy"];

describe("did you mean", () => {
  it.each([
    ["inspct", "inspect"],
    ["repaly", "replay"],
    ["rep", "replay"],
    ["--fail-on-stal", "--fail-on-stall"],
  ])("%s -> %s", (given, expected) => {
    expect(closest(given, [...COMMANDS, "--fail-on-stall", "--json"])).toBe(expected);
  });

  it("suggests nothing for a word far from every name", () => {
    expect(closest("frobnicate", COMMANDS)).toBeNull();
    expect(didYouMean("frobnicate", COMMANDS)).toBe("");
    expect(didYouMean("vew", COMMANDS)).toBe(" (did you mean view?)");
  });
});
