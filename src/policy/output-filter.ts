import type { Policy } from "./policy.js";

/** Path-like tokens: at least one separator, so plain words are never looked up. */
const PATH_TOKEN = /(?:~|\.{1,2}|[\w@.-]*)(?:\/[\w@.-]+)+\/?/g;
const MAX_LOOKUPS = 2000;

export interface FilteredOutput {
  text: string;
  /** Lines replaced because they name a path under an excluded marker. */
  redacted: number;
}

/**
 * Output of host tools (build and test runs) filtered by the policy: a line that names a path under an excluded
 * marker is replaced, so compiler errors quoting excluded code do not carry it into the context. Paths outside the
 * root (toolchains, system libraries) are left alone.
 */
export function filterOutput(text: string, policy: Policy): FilteredOutput {
  let lookups = 0;
  let redacted = 0;
  const lines = text.split("\n").map((line) => {
    for (const token of line.match(PATH_TOKEN) ?? []) {
      if (++lookups > MAX_LOOKUPS) return line;
      const decision = policy.decide(token.replace(/:\d+(:\d+)?$/, ""), "read");
      if (!decision.allowed && decision.kind === "marker") {
        redacted++;
        return "[line withheld by host policy: it names a path in an excluded directory]";
      }
    }
    return line;
  });
  return { text: lines.join("\n"), redacted };
}
