import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupCliSandboxes, createCliSandbox, sandboxEnv } from "../helpers/faux-cli.js";

const ENTRY = join(import.meta.dirname, "../helpers/pi-context-faux.mjs");
const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
const SESSION = `ck-tui-${process.pid}`;

afterAll(() => {
  spawnSync("tmux", ["kill-session", "-t", SESSION]);
  cleanupCliSandboxes();
});

const screen = () => execFileSync("tmux", ["capture-pane", "-t", SESSION, "-p", "-S", "-200"], { encoding: "utf8" });

async function until(check: (text: string) => boolean, ms = 20_000): Promise<string> {
  const end = Date.now() + ms;
  for (;;) {
    const text = screen();
    if (check(text)) return text;
    if (Date.now() > end) throw new Error(`screen never matched:\n${text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!hasTmux)("pi-context keeps the interactive TUI", () => {
  it("shows a denial with its guidance and refuses the user's ! commands", async () => {
    const sandbox = createCliSandbox({ files: { "secret/.context-exclude": "Private notes.\n", "hello.txt": "hi\n" } });
    const script = join(sandbox.root, "tui-script.json");
    writeFileSync(
      script,
      JSON.stringify([
        { text: "Reading.", toolCalls: [{ name: "read", args: { path: "secret/notes.txt" } }] },
        { text: "That folder is excluded." },
      ]),
    );
    const env = { ...sandboxEnv(sandbox), PI_FAUX_SCRIPT: script, PI_FAUX_LOG: join(sandbox.root, "tui-log.jsonl") };
    const exports = Object.entries(env)
      .map(([k, v]) => `${k}='${v}'`)
      .join(" ");
    const command = `cd '${sandbox.cwd}' && env -i ${exports} '${process.execPath}' '${ENTRY}' --model faux/faux-1`;
    execFileSync("tmux", ["new-session", "-d", "-s", SESSION, "-x", "140", "-y", "50", command]);
    await until((t) => t.includes("faux-1"));
    execFileSync("tmux", ["send-keys", "-t", SESSION, "What is in secret/notes.txt?", "Enter"]);
    // The TUI may draw the turn over more than one frame: wait for the reply and the denial above it.
    const parts = ["That folder is excluded.", "Access denied by host policy", "Private notes."];
    const answered = await until((t) => parts.every((part) => t.includes(part))).catch(screen);
    expect(answered).toContain("Access denied by host policy");
    expect(answered).toContain("Private notes.");
    execFileSync("tmux", ["send-keys", "-t", SESSION, "!ls", "Enter"]);
    const refused = await until((t) => t.includes("disabled by the project's context policy"));
    expect(refused).not.toContain("hello.txt");
  }, 60_000);
});
