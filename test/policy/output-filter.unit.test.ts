import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPolicy, filterOutput } from "../../src/policy/index.js";

function project() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ck-filter-")));
  mkdirSync(join(root, "generated"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "generated/.context-exclude"), "generated code\n");
  return createPolicy({ root });
}

describe("host-tool output filtered by the policy", () => {
  it("withholds lines naming paths under an excluded marker, in any spelling, and keeps the rest", () => {
    const policy = project();
    const output = [
      "src/app.ts:3:7 error TS2322: number is not string",
      "generated/client.ts:10:5 error: const SECRET = 'x'",
      `  at ${policy.root}/generated/client.ts:12`,
      "./src/../generated/deep/file.ts(4,2): warning",
      "/usr/lib/node_modules/typescript/lib/tsc.js:123 thrown",
      "Tests: 3 passed, 1 failed",
    ].join("\n");
    const { text, redacted } = filterOutput(output, policy);
    const lines = text.split("\n");
    expect(redacted).toBe(3);
    expect(lines[0]).toContain("src/app.ts");
    expect(lines[4]).toContain("/usr/lib/node_modules");
    expect(lines[5]).toBe("Tests: 3 passed, 1 failed");
    expect(text).not.toContain("SECRET");
    expect(text).not.toContain("generated/");
  });

  it("leaves text without paths untouched", () => {
    expect(filterOutput("all good\n2 passed", project())).toEqual({ text: "all good\n2 passed", redacted: 0 });
  });
});
