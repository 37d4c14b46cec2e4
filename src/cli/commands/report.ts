import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { InputError } from "../../files/input-error.js";
import { loadInput, notASession } from "../../files/load-input.js";
import { indexWhole } from "../../fleet/index-file.js";
import { fleetFacts } from "../../report/fleet-facts.js";
import { type PageModelParts, pageModelParts } from "../../report/page-model.js";
import { writeSessionPageFile } from "../../report/page-writer.js";
import { type IndexRow, renderIndexPage } from "../../report/render-index-page.js";
import { formatSummary, type SessionSummary } from "../../report/session-summary.js";
import { plural } from "../../text.js";
import { type Command, type CommandResultWithStderr, JSON_HELP, JSON_OPTION, UsageError } from "../command.js";
import { type FileFailure, failureLine, isFailure, settleAsync } from "../file-outcome.js";
import { expandInputs, writing, writingAsync } from "../inputs.js";

export interface ReportPage {
  file: string;
  page: string;
  bytes: number;
  summary: SessionSummary;
  /** Leaves whose model view the page embeds, and those the size budget left out. */
  projections: { embedded: number; skipped: number };
  /** Why the host cannot load the session (the page says so too); absent for a usable one. */
  error?: { code: string; message: string };
}

export interface ReportResult {
  out: string;
  /** The folder's index page; null for a single file. */
  index: string | null;
  pages: ReportPage[];
  /** Files below the folder that could not be read: no page, named here and on stderr. */
  failures: FileFailure[];
}

/** The page model of one session, in parts, and why the host cannot load it. */
function modelOf(path: string, shown: string): { parts: PageModelParts; error?: ReportPage["error"] } {
  const session = loadInput(path, shown);
  const parts = pageModelParts(shown, session);
  if (!session.log.unusable) return { parts };
  const why = notASession(session, shown);
  return { parts, error: { code: why.code, message: why.message } };
}

async function writeSessionPage(path: string, shown: string, page: string, indexHref?: string): Promise<ReportPage> {
  // The model's later members are made while the page is written; the entries are garbage once they are.
  const { parts, error } = modelOf(path, shown);
  const bytes = await writingAsync(`--out ${page}`, async () => {
    mkdirSync(dirname(page), { recursive: true });
    return writeSessionPageFile(parts, page, indexHref === undefined ? {} : { indexHref });
  });
  const model = { ...parts.first, ...parts.rest() };
  const written: ReportPage = {
    file: shown,
    page,
    bytes,
    summary: model.summary,
    projections: { embedded: model.projections.leaves.length, skipped: model.projections.skipped },
  };
  if (error) written.error = error;
  return written;
}

/** A page file name for each session, from its path below the folder: readable, portable and unique. */
export function pageNames(files: readonly string[], dir: string): string[] {
  const used = new Set<string>();
  return files.map((file) => {
    const stem =
      relative(dir, file)
        .replace(/\.jsonl$/, "")
        .split(sep)
        .join("__")
        .replace(/[^A-Za-z0-9._-]/g, "_") || "session";
    let name = `${stem}.html`;
    for (let k = 2; used.has(name.toLowerCase()); k++) name = `${stem}-${k}.html`;
    used.add(name.toLowerCase());
    return name;
  });
}

function exists(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false }) !== undefined;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function formatResult(result: ReportResult, cwd: string): string {
  const show = (path: string) => relative(cwd, path) || path;
  const lines = result.pages.map(
    (p) => `${p.file} -> ${show(p.page)} (${Math.ceil(p.bytes / 1024)} KiB): ${formatSummary(p.summary)}`,
  );
  lines.push(...result.failures.map((f) => `${f.file}: ${f.error.code}: no page (${f.error.message})`));
  if (result.index) {
    lines.unshift(`wrote ${show(result.index)} (${plural(result.pages.length, "session")})`);
  }
  return lines.join("\n");
}

export const reportCommand: Command = {
  name: "report",
  summary: "Write a self-contained HTML audit page of a session's branches and state (a folder: a page each + index).",
  usage: "FILE|DIR --out PATH [--json]",
  description:
    "Writes one HTML page per session: the tree of branches, each branch's entries beside the messages the model receives, the folded state at any entry, two branches side by side, and the reader's diagnostics. The page is one self-contained file (no network, a strict Content-Security-Policy) and shows the session's numbers even without JavaScript. For a folder it writes PATH/index.html, one row per session, and PATH/sessions/*.html. Exit 2 when a file is unreadable (it gets no page) or not a Pi session file (its page says why); the others are still written. Exit 2 with E_WRITE when a page cannot be written there (a file in the way of the folder, a folder that cannot be written).",
  options: { ...JSON_OPTION, out: { type: "string" } },
  optionHelp: {
    "--out PATH":
      "required: the page to write for a file (a folder there gets FILE.html), or the folder to write a folder's pages into",
    ...JSON_HELP,
  },
  examples: [
    "context-kit report session.jsonl --out session.html",
    "context-kit report ~/.pi/agent/sessions --out audit/   # then open audit/index.html",
  ],
  async run({ values, positionals, cwd, progress }) {
    if (positionals.length !== 1) throw new UsageError("name one session file or folder");
    const out = values.out;
    if (typeof out !== "string" || out === "") throw new UsageError("--out PATH is required");
    const given = positionals[0] as string;
    const files = expandInputs([given], cwd);
    const input = resolve(cwd, given);
    let result: ReportResult;
    if (isDirectory(input)) {
      const outDir = resolve(cwd, out);
      if (exists(outDir) && !isDirectory(outDir)) {
        throw new InputError("E_WRITE", `--out ${out}: a file is in the way; a folder's pages go in a folder`);
      }
      writing(`--out ${out}`, () => mkdirSync(join(outDir, "sessions"), { recursive: true }));
      const names = pageNames(
        files.map((f) => f.path),
        input,
      );
      const pages: ReportPage[] = [];
      const rows: IndexRow[] = [];
      const failures: FileFailure[] = [];
      for (const [i, file] of files.entries()) {
        progress(`report ${i + 1}/${files.length}`);
        const page = join(outDir, "sessions", names[i] as string);
        const written = await settleAsync(file.shown, () =>
          writeSessionPage(file.path, file.shown, page, "../index.html"),
        );
        if (isFailure(written)) {
          failures.push(written);
          continue;
        }
        pages.push(written);
        rows.push({
          file: written.file,
          href: `sessions/${names[i]}`,
          summary: written.summary,
          fleet: fleetFacts(indexWhole(file.path, file.shown, false)),
        });
      }
      progress("");
      const index = join(outDir, "index.html");
      writing(`--out ${out}`, () => writeFileSync(index, renderIndexPage(given, rows)));
      result = { out: outDir, index, pages, failures };
    } else {
      let page = resolve(cwd, out);
      if (isDirectory(page)) page = join(page, `${basename(input).replace(/\.jsonl$/, "")}.html`);
      if (page === input || page.endsWith(".jsonl")) {
        throw new UsageError("--out must name the HTML page to write, not a session file");
      }
      result = { out: page, index: null, pages: [await writeSessionPage(input, given, page)], failures: [] };
    }
    const bad = result.failures.length > 0 || result.pages.some((p) => p.summary.unusable);
    const done: CommandResultWithStderr = { exitCode: bad ? 2 : 0, json: result, text: formatResult(result, cwd) };
    const problems = [
      ...result.pages.flatMap((p) => (p.error ? [{ file: p.file, error: p.error }] : [])),
      ...result.failures,
    ];
    if (problems.length > 0) done.stderr = problems.map((f) => `${failureLine("report", f)}\n`).join("");
    return done;
  },
};
