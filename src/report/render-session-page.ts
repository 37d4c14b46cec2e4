import { gzipSync } from "node:zlib";
import { clientScript } from "./client-script.js";
import { PAGE_CSS } from "./client-style.js";
import { escapeHtml, pageStart, scriptSafe } from "./html.js";
import type { SessionPageModel } from "./page-model.js";
import { REQUEST_MARKS, requestsText } from "./request-status.js";
import {
  REVISION_NOTE,
  type SessionSummary,
  STALL_STOP,
  VERIFICATION_TONE,
  verificationText,
} from "./session-summary.js";

export interface SessionPageOptions {
  /** Link back to the folder's index page, relative to this page. */
  indexHref?: string;
  /** Model JSON longer than this is embedded gzip-compressed, in base64 (default 2,000,000 characters). */
  compressAbove?: number;
}

/**
 * The model as the text of its script element: plain JSON, or for a large session gzip + base64 (level 1: a 100k-entry
 * model shrinks about four times, in half the time level 6 takes); the client unpacks it with `DecompressionStream`.
 */
export function embeddedModel(model: SessionPageModel, compressAbove = 2_000_000): { text: string; encoding: string } {
  return embeddedJson(JSON.stringify(model), compressAbove);
}

/** `embeddedModel` of the model's JSON text. */
export function embeddedJson(json: string, compressAbove = 2_000_000): { text: string; encoding: string } {
  // Escaping only lengthens the text; base64 needs none, so a model too large either way is packed as it is.
  const safe = json.length <= compressAbove ? scriptSafe(json) : null;
  if (safe !== null && safe.length <= compressAbove) return { text: safe, encoding: "json" };
  return { text: gzipSync(json, { level: 1 }).toString("base64"), encoding: "gzip+base64" };
}

type Tone = "" | "good" | "bad" | "warn" | "kit";

function chip(label: string, tone: Tone = "", title = ""): string {
  const attrs = title ? ` title="${escapeHtml(title)}"` : "";
  return `<span class="chip${tone ? ` ${tone}` : ""}"${attrs}>${label}</span>`;
}

const n = (value: number, one: string, many = `${one}s`) => `<b>${value}</b> ${value === 1 ? one : many}`;

function summaryChips(s: SessionSummary, projections?: { embedded: number; total: number }): string {
  const d = s.diagnostics;
  const chips = [
    s.unusable ? chip("<b>not usable by the host</b>", "bad", "the host would treat this file as empty") : "",
    chip(n(s.entries, "entry", "entries")),
    chip(n(s.branches, "branch", "branches")),
    chip(n(s.stallStops, "stall stop"), s.stallStops > 0 ? "bad" : "", `STALLED_NO_TOOL_PROGRESS: ${STALL_STOP}`),
    chip(n(s.stalledLeaves, "stalled leaf", "stalled leaves"), s.stalledLeaves > 0 ? "bad" : ""),
    chip(n(s.recoveries, "recovery", "recoveries"), s.recoveries > 0 ? "kit" : "", "recovery markers"),
    chip(
      n(s.toolLoopLeaves, "leaf in a tool loop", "leaves in a tool loop"),
      s.toolLoopLeaves > 0 ? "bad" : "",
      "branches that end in the same tool calls repeated without progress",
    ),
    chip(
      `${n(s.toolLoopEpisodes, "tool-loop episode")} (${n(s.toolLoopWastedCalls, "call")} wasted)`,
      s.toolLoopEpisodes > 0 ? "bad" : "",
      "tool-call loops anywhere on any branch, escaped or not (marked ↻ on the timeline)",
    ),
    chip(
      `${n(s.denials, "denial")} in ${n(s.deniedScopes, "scope")}`,
      s.denials > 0 ? "warn" : "",
      "tool results that record a denied path",
    ),
    chip(
      `verification <b>${escapeHtml(verificationText(s.verification))}</b>`,
      VERIFICATION_TONE[s.verification.outcome],
      `on the active branch; ${REVISION_NOTE}`,
    ),
    d.errors + d.warnings === 0
      ? chip("no diagnostics", "good")
      : chip(
          `${n(d.errors, "error")}, ${n(d.warnings, "warning")}`,
          d.errors > 0 ? "bad" : "warn",
          "reader diagnostics",
        ),
    projections && projections.embedded < projections.total
      ? chip(`model view embedded for <b>${projections.embedded}</b> of ${projections.total} leaves`, "warn")
      : "",
  ];
  return chips.filter(Boolean).join("\n");
}

function headerMeta(model: SessionPageModel): string {
  const h = model.header;
  const parts = h
    ? [
        `session <code>${escapeHtml(h.id)}</code>`,
        h.cwd ? `cwd <code>${escapeHtml(h.cwd)}</code>` : "",
        h.timestamp ? escapeHtml(h.timestamp) : "",
        model.sourceVersion < 3
          ? `format v${model.sourceVersion} (migrated in memory)`
          : `format v${model.sourceVersion}`,
      ]
    : ["no usable session header"];
  parts.push(`${(model.bytes / 1024).toFixed(model.bytes < 10_240 ? 1 : 0)} KiB`);
  return parts.filter(Boolean).join(" · ");
}

const STATIC_DIAGNOSTICS = 20;

/**
 * What the page shows before its script runs (or without one): the session's numbers and its first diagnostics.
 * The script replaces it with the selected entry's state.
 */
function staticSummary(model: SessionPageModel): string {
  const s = model.summary;
  const row = (term: string, value: string) => `<dt>${term}</dt><dd>${value}</dd>`;
  const active = s.activeLeafId === null ? "none" : `<code>${escapeHtml(s.activeLeafId)}</code>`;
  const diagnostics = model.diagnostics
    .slice(0, STATIC_DIAGNOSTICS)
    .map(
      (d) =>
        `<div class="diag ${d.severity}"><div><b>${escapeHtml(d.code)}</b> <span class="muted">${d.severity} · line ${d.line}</span></div><div class="msg">${escapeHtml(d.message)}</div></div>`,
    );
  const more = model.diagnostics.length - diagnostics.length;
  return `<div id="static-summary">
<h3>Session</h3>
<dl class="kv">${[
    row("entries", String(s.entries)),
    row("branches", String(s.branches)),
    row("active leaf", active),
    row(
      "stall stops",
      `${s.stallStops} (${s.stalledLeaves} stalled ${s.stalledLeaves === 1 ? "leaf" : "leaves"}): ${STALL_STOP}`,
    ),
    row("recoveries", String(s.recoveries)),
    row("denials", `${s.denials} in ${s.deniedScopes} ${s.deniedScopes === 1 ? "scope" : "scopes"}`),
    row("verification", escapeHtml(verificationText(s.verification))),
    row("requests", escapeHtml(requestsText(model.requests) || "none")),
    row("diagnostics", String(model.diagnostics.length)),
  ].join("")}</dl>${requestRows(model)}
${diagnostics.join("\n")}${more > 0 ? `\n<p class="muted">and ${more} more diagnostics (context-kit inspect lists them all)</p>` : ""}
</div>`;
}

/** The requests' marks: a chip for the header, and a row per request that was not reproduced. */
function requestsChip(model: SessionPageModel): string {
  const text = requestsText(model.requests);
  if (text === "") return "";
  const c = model.requests.counts;
  const tone: Tone = c.differs > 0 ? "bad" : c.verified > 0 && c.notRecorded + c.otherVersion === 0 ? "good" : "warn";
  return chip(
    `requests: <b>${escapeHtml(text)}</b>`,
    tone,
    "each request's recorded digest compared with the view recomputed at its leaf",
  );
}

function requestRows(model: SessionPageModel): string {
  const rows = model.requests.rows.filter(([, mark]) => REQUEST_MARKS[mark] !== "verified");
  if (rows.length === 0) return "";
  const items = rows.slice(0, STATIC_DIAGNOSTICS).map(([leaf, mark]) => {
    const id = model.entries.ids[leaf] ?? "?";
    return `<li><code>${escapeHtml(id)}</code> ${escapeHtml(REQUEST_MARKS[mark] ?? "")}</li>`;
  });
  return `\n<h3>Requests not verified</h3>\n<ul class="requests">${items.join("")}</ul>`;
}

/** The self-contained page of one session: static frame and summary, the model as JSON, the client script. */
export function renderSessionPage(model: SessionPageModel, options: SessionPageOptions = {}): string {
  const data = embeddedModel(model, options.compressAbove);
  return `${pageBeforeData(model, options, data.encoding)}${data.text}${pageAfterData()}`;
}

/** The page up to the model's text in its script element, which is encoded as `encoding` says. */
export function pageBeforeData(model: SessionPageModel, options: SessionPageOptions, encoding: string): string {
  const d = model.diagnostics;
  const errors = d.some((x) => x.severity === "error");
  const leaves = model.summary.branches;
  const projections = { embedded: model.projections.leaves.length, total: leaves };
  const back = options.indexHref ? `<a href="${escapeHtml(options.indexHref)}">← all sessions</a>` : "";
  const script = clientScript();
  return `${pageStart(model.file, PAGE_CSS, script)}
<div class="page">
<header class="top">
  <div class="title">${back}<h1>${escapeHtml(model.file)}</h1><span class="meta">${headerMeta(model)}</span></div>
  <div class="chips" id="summary">${summaryChips(model.summary, projections)}\n${requestsChip(model)}</div>
</header>
<div>
  <div class="toolbar">
    <div class="seg" role="group" aria-label="Filter entries">
      <button type="button" data-filter="all" class="on">All</button><button type="button" data-filter="user">User messages</button><button type="button" data-filter="kit">Kit events</button>
    </div>
    <label><input type="checkbox" id="show-view" checked> Model view beside the branch</label>
    <span class="muted">Deep links: <code>#leafId=…</code>, <code>#entryId=…</code></span>
  </div>
  <div class="notice" id="notice" role="status"></div>
  <noscript><div class="notice">This report draws the session with JavaScript; enable it to browse branches.</div></noscript>
</div>
<main class="layout">
  <section class="pane" aria-label="Branches">
    <div class="pane-head"><h2>Branches</h2><span class="muted">${leaves} · ★ active</span></div>
    <div class="pane-body" id="tree"></div>
  </section>
  <section class="pane" aria-label="Entries">
    <div class="lists" id="lists">
      <div class="col"><div class="col-head" id="branch-head"></div><div class="vlist" id="branch-list" tabindex="0" aria-label="Entries of the branch"></div></div>
      <div class="col" id="view-col"><div class="col-head" id="view-head"></div><div class="vlist" id="view-list" aria-label="Messages the model receives"></div></div>
    </div>
  </section>
  <aside class="pane">
    <nav class="tabs">
      <button type="button" id="tab-btn-state" data-tab="state" class="on" title="the folded state at the selected entry">State</button>
      <button type="button" id="tab-btn-compare" data-tab="compare" title="two branches' states side by side">Compare</button>
      <button type="button" id="tab-btn-diagnostics" data-tab="diagnostics"${errors ? ' class="alert"' : ""}>Diagnostics (${d.length})</button>
    </nav>
    <div class="pane-body">
      <div class="tab" id="tab-state">${staticSummary(model)}</div>
      <div class="tab" id="tab-compare" hidden></div>
      <div class="tab" id="tab-diagnostics" hidden></div>
    </div>
  </aside>
</main>
</div>
<script type="application/json" id="session-data" data-encoding="${encoding}">`;
}

/** The page after the model's text. */
export function pageAfterData(): string {
  return `</script>
<script>${clientScript()}</script>
</body>
</html>
`;
}
