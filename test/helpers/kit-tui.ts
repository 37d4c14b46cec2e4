import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { expect } from "vitest";
import { KIT_SUBCOMMANDS } from "../../src/pi/tui/kit-command.js";
import { type CliSandbox, createCliSandbox, sandboxEnv } from "./faux-cli.js";

/**
 * The kit inside Pi's interactive TUI, end to end in tmux: a real project with `app_build`/`app_test` host tools, a
 * scripted faux model, and the offline CLI as the oracle for `/kit`. Each lane starts its own host command.
 */

const DIST = join(import.meta.dirname, "../../dist/src");
const CLI = join(DIST, "cli/main.js");
const CHROMIUM = "/usr/bin/chromium";
export const HAS_TMUX = spawnSync("tmux", ["-V"]).status === 0;
if (!HAS_TMUX) console.warn("kit TUI e2e: skipped, tmux is absent (apt-get install -y tmux)");

const SCRIPT = [
  { text: "Reading.", toolCalls: [{ name: "read", args: { path: "secret/notes.txt" } }] },
  { text: "That folder is excluded." },
  { text: "Editing.", toolCalls: [{ name: "write", args: { path: "app.txt", content: "v2\n" } }] },
  { text: "Updated app.txt." },
  { text: "The checks passed after the update." },
];

/** The footer: the status line the kit sets is the last screen line that starts with "kit:". */
function footer(text: string): string {
  const lines = text.split("\n").filter((line) => line.trimStart().startsWith("kit:"));
  return lines.at(-1)?.trim() ?? "";
}

/** A project whose build and test scripts run under plain node, and the example checks as host tools. */
export function project(): CliSandbox {
  const sandbox = createCliSandbox({
    files: {
      "secret/.context-exclude": "Private notes: ask the user for anything in here.\n",
      "app.txt": "v1\n",
      "package.json": JSON.stringify({
        name: "fixture",
        private: true,
        scripts: { build: "node -e 0", test: "node --test test/" },
      }),
      "test/app.test.mjs": 'import test from "node:test";\ntest("app", () => {});\n',
    },
  });
  const example = join(DIST, "tools/examples/app-checks.js");
  writeFileSync(join(sandbox.agentDir, "app-checks.mjs"), `export { createTools } from ${JSON.stringify(example)};\n`);
  writeFileSync(
    join(sandbox.agentDir, "context-kit-host-tools.json"),
    JSON.stringify({ version: 1, modules: [join(sandbox.agentDir, "app-checks.mjs")] }),
  );
  return sandbox;
}

function sessionFileOf(sandbox: CliSandbox): string {
  const dir = join(sandbox.agentDir, "sessions");
  const sub = readdirSync(dir)[0] as string;
  const file = readdirSync(join(dir, sub)).find((name) => name.endsWith(".jsonl")) as string;
  return join(dir, sub, file);
}

function lastEntryId(file: string): string {
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  return (JSON.parse(lines.at(-1) as string) as { id: string }).id;
}

function offline(sandbox: CliSandbox, args: string[]): string {
  // The host's agent directory is the sandbox's, as for the kit inside Pi (`policy` lists it).
  const env = { ...process.env, PI_CODING_AGENT_DIR: sandbox.agentDir };
  return execFileSync(process.execPath, [CLI, ...args], { cwd: sandbox.cwd, encoding: "utf8", env }).trimEnd();
}

/** Every line the offline command printed shows on the screen (the TUI indents and may trim trailing blanks). */
function allOnScreen(text: string, offlineText: string): boolean {
  const shown = new Set(text.split("\n").map((line) => line.trim()));
  return offlineText.split("\n").every((line) => shown.has(line.trim()));
}

function expectOnScreen(text: string, offlineText: string): void {
  const shown = new Set(text.split("\n").map((line) => line.trim()));
  for (const line of offlineText.split("\n")) expect(shown, `missing on screen: ${line}`).toContain(line.trim());
}

export interface TuiLane {
  /** tmux session name, unique per test file. */
  tmux: string;
  /** The host command and its arguments (node, entry, flags, --model). */
  command: string[];
  /** Extra environment (e.g. the 1.x host folder). */
  env?: Record<string, string>;
}

/**
 * A denied read, then an edit that the kit verifies: the footer follows both; `/kit` and `/kit policy` print what
 * `context-kit replay --leaf` and `context-kit policy` print; `/kit report` writes a page Chromium opens.
 */
export async function kitTuiScenario(lane: TuiLane): Promise<void> {
  const tmux = lane.tmux;
  const screen = () => execFileSync("tmux", ["capture-pane", "-t", tmux, "-p", "-S", "-400"], { encoding: "utf8" });
  const type = (...keys: string[]) => execFileSync("tmux", ["send-keys", "-t", tmux, ...keys]);
  const until = async (check: (text: string) => boolean, what: string, ms = 30_000): Promise<string> => {
    const end = Date.now() + ms;
    for (;;) {
      const text = screen();
      if (check(text)) return text;
      if (Date.now() > end) throw new Error(`screen never showed ${what}:\n${text}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  try {
    const sandbox = project();
    const script = join(sandbox.root, "script.json");
    writeFileSync(script, JSON.stringify(SCRIPT));
    const env = { ...sandboxEnv(sandbox), ...lane.env, PI_FAUX_SCRIPT: script, TERM: "xterm-256color" };
    const exports = Object.entries(env)
      .map(([k, v]) => `${k}='${v}'`)
      .join(" ");
    const command = `cd '${sandbox.cwd}' && env -i ${exports} ${lane.command.map((a) => `'${a}'`).join(" ")}`;
    execFileSync("tmux", ["new-session", "-d", "-s", tmux, "-x", "220", "-y", "80", command]);
    const start = await until(
      (t) => t.includes("faux-1") && t.includes("[Extensions]") && t.includes("/ commands"),
      "the startup header",
    ).catch(screen);
    // The shell is off: the header offers no `! bash`; inline extensions are listed by name.
    expect(start).toContain("/ commands");
    expect(start).not.toMatch(/! bash|to run bash/);
    expect(start).not.toMatch(/<inline:\d+>/);

    type("What is in secret/notes.txt?", "Enter");
    const denied = await until(
      (t) => t.includes("That folder is excluded.") && footer(t).includes("denied"),
      "a denial",
    );
    expect(footer(denied)).toContain("denied secret");
    expect(footer(denied)).toContain("recovery none");

    type("Update app.txt to v2.", "Enter");
    const verified = await until((t) => footer(t).includes("r1 verified"), "the verified revision", 60_000);
    expect(footer(verified)).toMatch(/build ok, test ok; rounds 1\/3/);
    expect(footer(verified)).toContain("none denied");
    await until((t) => t.includes("The checks passed after the update."), "the last reply");

    const file = sessionFileOf(sandbox);
    const shown = relative(sandbox.cwd, file);
    const before = readFileSync(file, "utf8");
    // The TUI may draw a command's lines over more than one frame: wait for all of them, then name any missing.
    const replayed = offline(sandbox, ["replay", shown, "--leaf", lastEntryId(file)]);
    type("/kit", "Enter");
    const state = await until((t) => t.includes("verification r1") && allOnScreen(t, replayed), "/kit").catch(screen);
    expectOnScreen(state, replayed);

    const viewed = offline(sandbox, ["view", shown, "--leaf", lastEntryId(file)]);
    type("/kit view", "Enter");
    const view = await until((t) => allOnScreen(t, viewed), "/kit view").catch(screen);
    expectOnScreen(view, viewed);

    const policyText = offline(sandbox, ["policy", "."]);
    type("/kit policy", "Enter");
    const policy = await until((t) => allOnScreen(t, policyText), "/kit policy").catch(screen);
    expectOnScreen(policy, policyText);

    // The help names every subcommand; as with /kit above, its lines may arrive over more than one frame.
    const helpText = [
      'unknown /kit command "nonsense"; the commands are:',
      ...Object.entries(KIT_SUBCOMMANDS).map(([name, what]) => `/kit${name ? ` ${name}` : ""}  ${what}`),
    ].join("\n");
    type("/kit nonsense", "Enter");
    const help = await until((t) => allOnScreen(t, helpText), "/kit help").catch(screen);
    expectOnScreen(help, helpText);

    type("/kit report", "Enter");
    const wrote = await until((t) => /wrote the audit report of [\s\S]*? to\s+\S+\.html/.test(t), "/kit report");
    const page = (/ to\s+(\S+\.html)/.exec(wrote) as RegExpExecArray)[1] as string;
    expect(existsSync(page)).toBe(true);
    expect(readFileSync(file, "utf8"), "the /kit commands append nothing").toBe(before);
    // Every request of the run (the denial, the edit, the kit's verification continuation) is reproduced offline.
    const checked = offline(sandbox, ["check", shown]);
    expect(checked).toMatch(/: 1 branch, (\d+) of \1 recorded requests reproduced, ok$/);
    if (existsSync(CHROMIUM)) {
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
      try {
        const tab = await browser.newPage();
        await tab.goto(pathToFileURL(page).href);
        expect(await tab.title()).toContain(".jsonl");
        // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText, not the DOM property
        expect(await tab.locator("body").innerText()).toContain("Update app.txt to v2.");
      } finally {
        await browser.close();
      }
    }
  } finally {
    spawnSync("tmux", ["kill-session", "-t", tmux]);
  }
}
