import { describe, expect, it } from "vitest";
import { headerWithoutShell, withoutShellHint } from "../../src/pi/tui/shell-hint.js";

const dim = (s: string) => `\x1b[2m${s}\x1b[22m`;
const key = (s: string) => `\x1b[36m${s}\x1b[39m`;
const compact = [
  `${key("escape")} interrupt`,
  `${key("/")} commands`,
  `${key("!")} ${dim("bash")}`,
  `${key("ctrl+o")} more`,
].join(dim(" · "));

describe("the startup header without the shell hints", () => {
  it("takes '· ! bash' out of the compact line and keeps every escape sequence", () => {
    const out = withoutShellHint(compact) as string;
    expect(out.replace(/\x1b\[[0-9;]*m/g, "")).toBe("escape interrupt · / commands · ctrl+o more");
    expect(out.match(/\x1b\[[0-9;]*m/g)).toEqual(compact.match(/\x1b\[[0-9;]*m/g));
  });

  it("drops the full help's bash lines and leaves every other line alone", () => {
    expect(withoutShellHint(` ${key("!")} to run bash`)).toBeNull();
    expect(withoutShellHint(` ${key("!!")} to run bash (no context)`)).toBeNull();
    expect(withoutShellHint(` ${key("/")} for commands`)).toBe(` ${key("/")} for commands`);
    expect(withoutShellHint("use ! bash here")).toBe("use ! bash here");
  });

  it("wraps the host's expandable header found in the TUI's first container, or gives null", () => {
    let expanded = false;
    const builtIn = {
      render: () => ["pi", compact, ` ${key("!")} to run bash`],
      setExpanded: (e: boolean) => {
        expanded = e;
      },
    };
    const header = headerWithoutShell({ render: () => [], children: [{ render: () => [], children: [builtIn] }] });
    expect(header?.render(80).map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""))).toEqual([
      "pi",
      "escape interrupt · / commands · ctrl+o more",
    ]);
    header?.setExpanded?.(true);
    expect(expanded).toBe(true);
    expect(headerWithoutShell({ render: () => [], children: [] })).toBeNull();
    // 1.x: the header container sits inside a document container.
    const nested = {
      render: () => [],
      children: [{ render: () => [], children: [{ render: () => [], children: [builtIn] }] }],
    };
    expect(headerWithoutShell(nested)?.render(80)).toHaveLength(2);
  });
});
