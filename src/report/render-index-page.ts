import { PAGE_CSS } from "./client-style.js";
import type { IndexFleetFacts } from "./fleet-facts.js";
import { escapeHtml, pageStart } from "./html.js";
import { barChart, type ChartGroup } from "./index-charts.js";
import { INDEX_SORT_SCRIPT } from "./index-sort.js";
import {
  formatSummary,
  REVISION_NOTE,
  type SessionSummary,
  STALL_STOP,
  VERIFICATION_TONE,
  verificationText,
} from "./session-summary.js";

export interface IndexRow {
  /** The session file, as shown (relative to where the command ran). */
  file: string;
  /** The session page, relative to the index page. */
  href: string;
  summary: SessionSummary;
  /** The fleet tables' facts about the session (model, start, loops, requests); absent, the columns say "-". */
  fleet?: IndexFleetFacts;
}

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

const cell = (value: number, tone = false) =>
  `<td data-v="${value}"${tone && value > 0 ? ' class="bad"' : ""}>${value}</td>`;

const VERIFICATION_ORDER = [
  "failed",
  "incomplete",
  "unverified",
  "no checks recorded",
  "no tests",
  "no changes",
  "passed",
];

/** Requests: reproduced is good, a differing one is bad, and "not recorded" (a plain Pi session) is neutral. */
function requestsCell(f: IndexFleetFacts | undefined): string {
  if (!f) return '<td data-v="-1">-</td>';
  const r = f.requests;
  const total = r.verified + r.differs + r.otherVersion + r.notRecorded;
  if (r.differs > 0) return `<td class="bad" data-v="${r.differs}">${r.differs} of ${total} differ</td>`;
  if (r.otherVersion > 0)
    return `<td class="warn" data-v="0">${r.otherVersion} of ${total} from another kit version</td>`;
  if (r.verified > 0) return `<td class="good" data-v="0">${r.verified} of ${total} reproduced</td>`;
  return `<td class="muted" data-v="0">${total} not recorded</td>`;
}

/** Stalls, loops and denials by session start day and by model, from the rows that carry fleet facts. */
function charts(rows: readonly IndexRow[]): string {
  const withFacts = rows.filter((r) => r.fleet !== undefined);
  if (withFacts.length === 0) return "";
  const group = (key: (f: IndexFleetFacts) => string): ChartGroup[] => {
    const by = new Map<string, number[]>();
    for (const r of withFacts) {
      const f = r.fleet as IndexFleetFacts;
      const k = key(f);
      const v = by.get(k) ?? [0, 0, 0];
      v[0] = (v[0] as number) + f.stalls;
      v[1] = (v[1] as number) + f.loops;
      v[2] = (v[2] as number) + f.denials;
      by.set(k, v);
    }
    return [...by].map(([label, values]) => ({ label, values }));
  };
  const byDay = group((f) => f.startedAt?.slice(0, 10) ?? "unknown").sort((a, b) => a.label.localeCompare(b.label));
  const byModel = group((f) => f.model ?? "(no model)").sort((a, b) => a.label.localeCompare(b.label));
  return `<div class="charts">
${barChart("Stalls, loops and denials by the day sessions started", byDay, "by-day")}
${barChart("Stalls, loops and denials by model", byModel, "by-model")}
</div>`;
}

const SORTED_HEADS: [label: string, sort: "text" | "number" | ""][] = [
  ["session", "text"],
  ["model", "text"],
  ["started", "text"],
  ["entries", "number"],
  ["branches", "number"],
  ["stall stops", "number"],
  ["stalls", "number"],
  ["loops", "number"],
  ["tool-loop episodes", "number"],
  ["recoveries", "number"],
  ["denials", "number"],
  ["verification", "number"],
  ["requests", "number"],
  ["diagnostics", "number"],
];

/** The folder's index: charts, then one row per session with its one-line summary, linking to its page; sortable. */
export function renderIndexPage(title: string, rows: readonly IndexRow[]): string {
  const body = rows
    .map((row) => {
      const s = row.summary;
      const f = row.fleet;
      const d = s.diagnostics;
      const diagnostics =
        d.errors + d.warnings === 0 ? "none" : `${count(d.errors, "error")}, ${count(d.warnings, "warning")}`;
      const tone = d.errors > 0 || s.unusable ? "whole bad" : "whole";
      const model = f?.model ?? "-";
      const started = f?.startedAt ? f.startedAt.slice(0, 16).replace("T", " ") : "-";
      const loops = f ? f.loops : s.toolLoopLeaves;
      const stalls = f ? f.stalls : s.stalledLeaves;
      return `<tr title="${escapeHtml(formatSummary(s))}">
  <td class="file" data-v="${escapeHtml(row.file)}"><a href="${escapeHtml(row.href)}">${escapeHtml(row.file)}</a></td>
  <td class="model">${escapeHtml(model)}</td><td class="whole" data-v="${escapeHtml(f?.startedAt ?? "")}">${escapeHtml(started)}</td>
  ${cell(s.entries)}${cell(s.branches)}${cell(s.stallStops, true)}${cell(stalls, true)}${cell(loops, true)}
  <td data-v="${s.toolLoopEpisodes}" class="${s.toolLoopEpisodes > 0 ? "bad" : ""}" title="${count(s.toolLoopWastedCalls, "call")} wasted">${s.toolLoopEpisodes}</td>${cell(s.recoveries)}
  <td data-v="${s.denials}">${s.denials} in ${count(s.deniedScopes, "scope")}</td>
  <td data-v="${VERIFICATION_ORDER.indexOf(s.verification.outcome)}" class="${VERIFICATION_TONE[s.verification.outcome]}" title="${escapeHtml(verificationText(s.verification))}">${escapeHtml(s.verification.outcome)} (r${s.verification.revision})</td>
  ${requestsCell(f)}
  <td data-v="${d.errors * 1000 + d.warnings + (s.unusable ? 1e6 : 0)}" class="${tone}">${s.unusable ? "unusable by the host; " : ""}${diagnostics}</td>
</tr>`;
    })
    .join("\n");
  const heads = SORTED_HEADS.map(([label, sort]) => `<th${sort ? ` data-sort="${sort}"` : ""}>${label}</th>`).join("");
  return `${pageStart(title, PAGE_CSS, INDEX_SORT_SCRIPT)}
<div class="index">
<h1>${escapeHtml(title)}</h1>
<p class="muted">${rows.length} session file${rows.length === 1 ? "" : "s"}. Stall stops (${escapeHtml(STALL_STOP)}), recoveries and denials count kit host entries and tool results anywhere in the file; stalls and loops count branches; verification is the active branch's (${escapeHtml(REVISION_NOTE)}). Requests of plain Pi sessions are not recorded: nothing to prove, nothing wrong. Click a heading to sort.</p>
${charts(rows)}
<table class="grid" id="sessions">
<thead><tr>${heads}</tr></thead>
<tbody>
${body}
</tbody>
</table>
</div>
<script>${INDEX_SORT_SCRIPT}</script>
</body>
</html>
`;
}
