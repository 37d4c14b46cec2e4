import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMAND_NAMES, loadCommand, loadCommands } from "../../src/cli/commands/index.js";
import { usageLine } from "../../src/cli/help.js";
import { runCli } from "../../src/cli/run.js";

const COMMANDS = await loadCommands();

const help = async (...argv: string[]) => {
  const out = await runCli(argv, { cwd: "." });
  expect(out.exitCode).toBe(0);
  expect(out.stderr).toBe("");
  return out.stdout;
};

describe("help", () => {
  it("names each command as it is loaded, and loads nothing for a name no command has", () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(COMMAND_NAMES);
    expect(loadCommand("toString")).toBeUndefined();
    expect(loadCommand("nope")).toBeUndefined();
  });

  it("explains every option of every command, and gives an example", () => {
    for (const command of COMMANDS) {
      const explained = Object.keys(command.optionHelp).map((flag) => flag.split(" ")[0]);
      expect(explained.sort(), command.name).toEqual(
        Object.keys(command.options)
          .map((o) => `--${o}`)
          .sort(),
      );
      for (const text of Object.values(command.optionHelp)) expect(text.length).toBeGreaterThan(15);
      expect(command.examples.length, command.name).toBeGreaterThan(0);
      for (const example of command.examples) expect(example).toMatch(new RegExp(`^context-kit ${command.name}\\b`));
    }
  });

  it("agrees with the README's command table", () => {
    const readme = readFileSync(join(import.meta.dirname, "../../README.md"), "utf8");
    const table = readme.slice(readme.indexOf("| command | what it does |"));
    const rows = table
      .split("\n")
      .slice(2)
      .filter((line) => line.startsWith("| `"))
      .map((line) => (line.match(/^\| `(.+?)` \|/)?.[1] ?? "").replaceAll("\\|", "|"))
      // The benchmark is the checkout's `npm run bench`, not a command of the installed kit.
      .filter((row) => !row.startsWith("bench "));
    expect(rows).toEqual(COMMANDS.map((c) => usageLine(c).replace(/^context-kit /, "")));
  });

  it("context-kit --help", async () => {
    expect(await help("--help")).toMatchInlineSnapshot(`
      "context-kit: offline tools for Pi session files (read-only, except recover, which only appends)

      Usage: context-kit <command> [options]

      Commands:
        inspect  Header, entry counts, tree shape and diagnostics of session files (never writes).
        replay   Replay every branch through the reducers and print each branch's folded state (never writes).
        view     Show what the model would be sent for a leaf: the recovery view when the branch has an anchor.
        check    Check the projection invariants on every branch, and that the view reproduces every recorded request (a folder is searched).
        detect   Say whether a leaf ends in a stall or a tool-call loop, and which entries make it.
        recover  Append a recovery or loop marker to a stalled session (after a backup and an idle check) so the next run recovers.
        report   Write a self-contained HTML audit page of a session's branches and state (a folder: a page each + index).
        policy   List the excluded scopes under a policy root, with their marker guidance, and the control paths.
        index    Index many session files into a DuckDB database (incremental): sessions, branches, requests, tool calls, denials, stalls, loops.
        export   Write the fleet tables as Parquet (for DuckDB, Spark, Trino, BigQuery) or the sessions as OpenTelemetry traces.
        stats    Print the fleet summary from an index database: stall and loop rate by model, denied scopes, verification, requests.

      Every command takes --json; inspect, replay, check and detect also --ndjson. Exit codes: 0 ok, 1 a check
      found a problem, 2 bad usage or input. Run \`context-kit <command> --help\` for a command's options and examples.
      "
    `);
  });

  it("context-kit help inspect equals context-kit inspect --help", async () => {
    expect(await help("help", "inspect")).toBe(await help("inspect", "--help"));
  });

  it("context-kit inspect --help", async () => {
    expect(await help("inspect", "--help")).toMatchInlineSnapshot(`
      "context-kit inspect: Header, entry counts, tree shape and diagnostics of session files (never writes).

      Usage: context-kit inspect FILE|DIR... [--strict] [--json | --ndjson]

      Reads each session file as the host does and prints its header, entries by type, roots, leaves with
      their depths, the active leaf and every diagnostic (file, line, code and what the host loses:
      dropped lines, orphaned branches, lost compactions). A folder stands for every *.jsonl below it;
      several files run in parallel and end with one summary line. Exit 2 when a file is unreadable or not
      a Pi session file (the others are still inspected).

      Options:
        --strict    exit 1 when any file has an error diagnostic (a line the host drops or an entry it
                    re-parents)
        --json      print one JSON document, {files: [...], summary}, whatever the number of files
        --ndjson    print one JSON line per file as each is done (the same objects as --json's files), for
                    batch runs that split a folder across machines and merge the lines
        -h, --help  this help

      Examples:
        context-kit inspect ~/.pi/agent/sessions
        context-kit inspect session.jsonl --strict
        context-kit inspect sessions/ --ndjson > inspect.ndjson
      "
    `);
  });

  it("context-kit replay --help", async () => {
    expect(await help("replay", "--help")).toMatchInlineSnapshot(`
      "context-kit replay: Replay every branch through the reducers and print each branch's folded state (never writes).

      Usage: context-kit replay FILE|DIR... [--leaf ID] [--json | --ndjson]

      Folds each branch of the tree (root to leaf) through the kit's reducers and prints its state: the
      current request, model, denied scopes, file issues, verification revision and checks, recovery
      anchor and any stall. The active branch is marked *, others say where they fork from it. A folder
      stands for every *.jsonl below it. Exit 2 when a file is unreadable or not a Pi session file (the
      others are still replayed).

      Options:
        --leaf ID   replay only the branch that ends at this entry (one file only; a unique prefix of the
                    id is enough)
        --json      print one JSON document, {files: [...], summary}, whatever the number of files
        --ndjson    print one JSON line per file as each is done (the same objects as --json's files), for
                    batch runs that split a folder across machines and merge the lines
        -h, --help  this help

      Examples:
        context-kit replay session.jsonl
        context-kit replay evidence-samples/branched-school-session.jsonl --leaf 00007065 --json
        context-kit replay ~/.pi/agent/sessions --ndjson
      "
    `);
  });

  it("context-kit view --help", async () => {
    expect(await help("view", "--help")).toMatchInlineSnapshot(`
      "context-kit view: Show what the model would be sent for a leaf: the recovery view when the branch has an anchor.

      Usage: context-kit view FILE [--leaf ID] [--no-recovery] [--json]

      Builds the messages the model would receive for the branch to a leaf (the active leaf unless
      --leaf): the host's own context, or the recovery view when the branch has a recovery marker
      (instructions, every user message of the branch, the marker and what follows it). Prints one row per
      message with its role and text (a reply that ended in a provider error shows the error), what the
      view leaves out, its estimated tokens beside the host's own context for the leaf (the view can be
      larger: the kit adds its guidance and reminders; a saving is shown only when there is one), and
      whether each request the kit recorded at this leaf is reproduced. A branch cut from its root (a line
      the host drops held an entry on it) is marked orphaned, with where the host starts sending it, and
      the branch's own error diagnostics are listed. Exit 2 when the file is unreadable or not a Pi
      session file, or when a record on the branch failed its schema.

      Options:
        --leaf ID      show the branch that ends at this entry instead of the active leaf (a unique prefix
                       of the id is enough)
        --no-recovery  show the host's own context even where a recovery marker applies (to compare the
                       two)
        --json         print one JSON document on stdout instead of text
        -h, --help     this help

      Examples:
        context-kit view session.jsonl
        context-kit view evidence-samples/branched-school-session.jsonl --leaf 00007065 --no-recovery --json
      "
    `);
  });

  it("context-kit check --help", async () => {
    expect(await help("check", "--help")).toMatchInlineSnapshot(`
      "context-kit check: Check the projection invariants on every branch, and that the view reproduces every recorded request (a folder is searched).

      Usage: context-kit check FILE|DIR... [--json | --ndjson]

      For every leaf of every file, computes the outgoing view and checks the projection invariants (every
      user message of the branch kept, tool calls paired with their results, a recovery view only from an
      authentic marker, ...), and recomputes every request the kit recorded (its digest) to say whether
      the view reproduces it. Error diagnostics fail the check too, counted apart as reader errors
      (readerErrors in --json): a line the host drops, an entry it re-parents or a cycle changes what the
      model sees. Exit 1 on any violation or reader error, 2 when a file is unreadable or not a Pi session
      file (the others are still checked).

      Options:
        --json      print one JSON document, {files: [...], summary}, whatever the number of files
        --ndjson    print one JSON line per file as each is done (the same objects as --json's files), for
                    batch runs that split a folder across machines and merge the lines
        -h, --help  this help

      Examples:
        context-kit check ~/.pi/agent/sessions
        context-kit check session.jsonl --json
      "
    `);
  });

  it("context-kit detect --help", async () => {
    expect(await help("detect", "--help")).toMatchInlineSnapshot(`
      "context-kit detect: Say whether a leaf ends in a stall or a tool-call loop, and which entries make it.

      Usage: context-kit detect FILE|DIR... [--leaf ID] [--explain] [--fail-on-stall] [--json | --ndjson]

      Folds the branch to the leaf (the active leaf unless --leaf) and says whether it ends in a stall:
      three action-promise replies about the same action on the same object ("Let me check the compiler
      errors.", "我来检查一下编译错误。", "讓我再檢查一次編譯錯誤") with no tool call or result between them, or a
      STALLED_NO_TOOL_PROGRESS stop after a recovery. Names the replies that make the run. Also says
      whether it ends in a tool-call loop (toolLoop: repeat, ping-pong, repeated-failure or
      post-compaction) and names its calls and entries. A folder (or several files) gives one line per
      file, each about its active leaf (--json: {files, summary}; --ndjson: one line per file). Exit 0
      either way (1 with --fail-on-stall), 2 when a file is unreadable or not a Pi session file.

      Options:
        --leaf ID        look at the branch that ends at this entry instead of the active leaf (a unique
                         prefix of the id is enough)
        --explain        label each reply on the leaf's recent path (promise, deliverable, question,
                         refusal, blocker, status ...) with the action and object found and its similarity
                         to the run
        --fail-on-stall  exit 1 when the leaf is stalled or ends in a tool-call loop, for scripts and CI
        --json           print one JSON document: one file's report, or {files: [...], summary} for
                         several files or a folder
        --ndjson         print one JSON line per file as each is done (the same objects as --json's
                         files), for batch runs that split a folder across machines and merge the lines
        -h, --help       this help

      Examples:
        context-kit detect session.jsonl
        context-kit detect evidence-samples/branched-school-session.jsonl --leaf 00007065 --fail-on-stall
        context-kit detect session.jsonl --explain
        context-kit detect ~/.pi/agent/sessions --ndjson
      "
    `);
  });

  it("context-kit recover --help", async () => {
    expect(await help("recover", "--help")).toMatchInlineSnapshot(`
      "context-kit recover: Append a recovery or loop marker to a stalled session (after a backup and an idle check) so the next run recovers.

      Usage: context-kit recover FILE [--dry-run] [--force] [--backup-dir DIR] [--evidence DIR] [--json]

      For a session whose active leaf is stalled, appends one recovery marker (a visible CONTEXT_RECOVERED
      host message) after it, so the next run with the kit (pi-context --session FILE, or pi with the kit
      installed; plain pi ignores the marker) starts from the recovery view; for one that ends in a
      tool-call loop not yet marked in its request, appends the loop marker (REPEATED_TOOL_CALLS) instead.
      Checks the leaf is stalled, refuses while the session is in use, copies the file to a backup first,
      appends under a lock and proves the original bytes unchanged (length and SHA-256 before and after).
      Running it again appends nothing. Exit 0 when a marker is appended, would be (--dry-run) or already
      ends the branch; 1 when the session is not stalled (nothing to recover); 2 on bad input, when the
      file is in use, or when the backup or evidence cannot be written.

      Options:
        --dry-run         check everything and say what would be appended, after which entry and where the
                          backup would go, without writing anything
        --force           append even when the session looks in use (another process has it open, or it
                          changed in the last 10 s)
        --backup-dir DIR  write the backup copy here instead of beside the session file
        --evidence DIR    also write summary.json here: ids, byte counts and hashes before and after, the
                          backup's path
        --json            print one JSON document on stdout instead of text
        -h, --help        this help

      Examples:
        context-kit recover session.jsonl --dry-run
        context-kit recover session.jsonl --backup-dir backups --evidence evidence/run-1
      "
    `);
  });

  it("context-kit report --help", async () => {
    expect(await help("report", "--help")).toMatchInlineSnapshot(`
      "context-kit report: Write a self-contained HTML audit page of a session's branches and state (a folder: a page each + index).

      Usage: context-kit report FILE|DIR --out PATH [--json]

      Writes one HTML page per session: the tree of branches, each branch's entries beside the messages
      the model receives, the folded state at any entry, two branches side by side, and the reader's
      diagnostics. The page is one self-contained file (no network, a strict Content-Security-Policy) and
      shows the session's numbers even without JavaScript. For a folder it writes PATH/index.html, one row
      per session, and PATH/sessions/*.html. Exit 2 when a file is unreadable (it gets no page) or not a
      Pi session file (its page says why); the others are still written. Exit 2 with E_WRITE when a page
      cannot be written there (a file in the way of the folder, a folder that cannot be written).

      Options:
        --out PATH  required: the page to write for a file (a folder there gets FILE.html), or the folder
                    to write a folder's pages into
        --json      print one JSON document on stdout instead of text
        -h, --help  this help

      Examples:
        context-kit report session.jsonl --out session.html
        context-kit report ~/.pi/agent/sessions --out audit/   # then open audit/index.html
      "
    `);
  });

  it("context-kit policy --help", async () => {
    expect(await help("policy", "--help")).toMatchInlineSnapshot(`
      "context-kit policy: List the excluded scopes under a policy root, with their marker guidance, and the control paths.

      Usage: context-kit policy [DIR] [--json]

      Walks the policy root (the current directory unless DIR is given) the way the guarded file tools
      walk, pruning each directory that holds a .context-exclude marker before reading it, and lists those
      excluded scopes with the start of their marker guidance, then every control path the file tools
      never write (.pi/, .agents/ and .git/ at any depth, .context-exclude files, the kit's own package
      and the host's agent directory, PI_CODING_AGENT_DIR or ~/.pi/agent). It prints what /kit policy
      prints inside Pi. Never writes. Exit 2 when DIR is not a directory.

      Options:
        --json      print one JSON document on stdout instead of text
        -h, --help  this help

      Examples:
        context-kit policy
        context-kit policy ~/projects/app --json
      "
    `);
  });

  it("no command: the help on stdout and exit 2", async () => {
    const out = await runCli([], { cwd: "." });
    expect(out.exitCode).toBe(2);
    expect(out.stdout).toBe(await help("--help"));
  });
});
