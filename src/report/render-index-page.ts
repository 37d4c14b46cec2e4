import { PAGE_CSS } from "./client-style.js";
import { escapeHtml, pageStart } from "./html.js";
import { formatSummary, type SessionSummary } from "./session-summary.js";

export interface IndexRow {
  /** The session file, as shown (relative to where the command ran). */
  file: string;
  /** The session page, relative to the index page. */
  href: string;
  summary: SessionSummary;
}

const TONE: Record<SessionSummary["verification"]["outcome"], string> = {
  passed: "good",
  failed: "bad",
  incomplete: "bad",
  "no tests": "warn",
  unverified: "warn",
  "no changes": "",
};

const cell = (value: number, tone = false) => `<td${tone && value > 0 ? ' class="bad"' : ""}>${value}</td>`;

/** The folder's index: one row per session with its one-line summary, linking to its page. No script. */
export function renderIndexPage(title: string, rows: readonly IndexRow[]): string {
  const body = rows
    .map((row) => {
      const s = row.summary;
      const d = s.diagnostics;
      const diagnostics = d.errors + d.warnings === 0 ? "none" : `${d.errors} errors, ${d.warnings} warnings`;
      return `<tr title="${escapeHtml(formatSummary(s))}">
  <td><a href="${escapeHtml(row.href)}">${escapeHtml(row.file)}</a></td>
  ${cell(s.entries)}${cell(s.branches)}${cell(s.stallStops, true)}${cell(s.stalledLeaves, true)}${cell(s.recoveries)}
  <td>${s.denials} in ${s.deniedScopes} scope${s.deniedScopes === 1 ? "" : "s"}</td>
  <td class="${TONE[s.verification.outcome]}">${escapeHtml(s.verification.outcome)} (r${s.verification.revision})</td>
  <td${d.errors > 0 || s.unusable ? ' class="bad"' : ""}>${s.unusable ? "unusable by the host; " : ""}${diagnostics}</td>
</tr>`;
    })
    .join("\n");
  return `${pageStart(title, PAGE_CSS)}
<div class="index">
<h1>${escapeHtml(title)}</h1>
<p class="muted">${rows.length} session file${rows.length === 1 ? "" : "s"}. Stall stops, recoveries and denials count kit host entries and tool results anywhere in the file; verification is the active branch's.</p>
<table class="grid" id="sessions">
<tr><th>session</th><th>entries</th><th>branches</th><th>stall stops</th><th>stalled leaves</th><th>recoveries</th><th>denials</th><th>verification</th><th>diagnostics</th></tr>
${body}
</table>
</div>
</body>
</html>
`;
}
