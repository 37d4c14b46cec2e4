import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { buildPageModel } from "../../report/page-model.js";
import { type IndexRow, renderIndexPage } from "../../report/render-index-page.js";
import { renderSessionPage } from "../../report/render-session-page.js";
import { formatSummary, type SessionSummary } from "../../report/session-summary.js";
import { type Command, InputError, JSON_OPTION, UsageError } from "../command.js";
import { expandInputs, loadInput } from "../inputs.js";

export interface ReportPage {
  file: string;
  page: string;
  bytes: number;
  summary: SessionSummary;
  /** Leaves whose model view the page embeds, and those the size budget left out. */
  projections: { embedded: number; skipped: number };
}

export interface ReportResult {
  out: string;
  /** The folder's index page; null for a single file. */
  index: string | null;
  pages: ReportPage[];
}

function writeSessionPage(path: string, shown: string, page: string, indexHref?: string): ReportPage {
  const session = loadInput(path, shown);
  const model = buildPageModel(shown, session);
  const html = renderSessionPage(model, indexHref === undefined ? {} : { indexHref });
  mkdirSync(dirname(page), { recursive: true });
  writeFileSync(page, html);
  return {
    file: shown,
    page,
    bytes: Buffer.byteLength(html),
    summary: model.summary,
    projections: { embedded: model.projections.leaves.length, skipped: model.projections.skipped },
  };
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
  if (result.index) lines.unshift(`wrote ${show(result.index)} (${result.pages.length} sessions)`);
  return lines.join("\n");
}

export const reportCommand: Command = {
  name: "report",
  summary: "Write a self-contained HTML audit page of a session's branches and state (a folder: a page each + index).",
  usage: "context-kit report FILE|DIR --out PATH [--json]",
  options: { ...JSON_OPTION, out: { type: "string" } },
  run({ values, positionals, cwd, progress }) {
    if (positionals.length !== 1) throw new UsageError("name one session file or folder");
    const out = values.out;
    if (typeof out !== "string" || out === "") throw new UsageError("--out PATH is required");
    const given = positionals[0] as string;
    const files = expandInputs([given], cwd);
    const input = resolve(cwd, given);
    let result: ReportResult;
    if (isDirectory(input)) {
      if (files.length === 0) throw new InputError("E_READ", `${given}: no session files (*.jsonl) below it`);
      const outDir = resolve(cwd, out);
      const names = pageNames(files, input);
      const pages = files.map((file, i) => {
        progress(`report ${i + 1}/${files.length}`);
        const page = join(outDir, "sessions", names[i] as string);
        return writeSessionPage(file, relative(cwd, file) || file, page, "../index.html");
      });
      const rows: IndexRow[] = pages.map((p, i) => ({
        file: p.file,
        href: `sessions/${names[i]}`,
        summary: p.summary,
      }));
      const index = join(outDir, "index.html");
      writeFileSync(index, renderIndexPage(relative(cwd, input) || basename(input), rows));
      result = { out: outDir, index, pages };
    } else {
      let page = resolve(cwd, out);
      if (isDirectory(page)) page = join(page, `${basename(input).replace(/\.jsonl$/, "")}.html`);
      if (page === input || page.endsWith(".jsonl")) {
        throw new UsageError("--out must name the HTML page to write, not a session file");
      }
      result = { out: page, index: null, pages: [writeSessionPage(input, relative(cwd, input) || input, page)] };
    }
    const unusable = result.pages.some((p) => p.summary.unusable);
    return { exitCode: unusable ? 2 : 0, json: result, text: formatResult(result, cwd) };
  },
};
