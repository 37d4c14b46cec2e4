import { PAGE_CSS } from "./client-style.js";
import { escapeHtml, pageStart } from "./html.js";
import {
  formatSummary,
  REVISION_NOTE,
  type SessionSummary,
  VERIFICATION_TONE,
  verificationText,
} from "./session-summary.js";

export interface IndexRow {
  /** The session file, as shown (relative to where the command ran). */
  file: string;
  /** The session page, relative to the index page. */
  href: string;
  summary: SessionSummary;
}

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

const cell = (value: number, tone = false) => `<td${tone && value > 0 ? ' class="bad"' : ""}>${value}</td>`;

/** The folder's index: one row per session with its one-line summary, linking to its page. No script. */
export function renderIndexPage(title: string, rows: readonly IndexRow[]): string {
  const body = rows
    .map((row) => {
      const s = row.summary;
      const d = s.diagnostics;
      const diagnostics =
        d.errors + d.warnings === 0 ? "none" : `${count(d.errors, "error")}, ${count(d.warnings, "warning")}`;
      const tone = d.errors > 0 || s.unusable ? "whole bad" : "whole";
      return `<tr title="${escapeHtml(formatSummary(s))}">
  <td class="file"><a href="${escapeHtml(row.href)}">${escapeHtml(row.file)}</a></td>
  ${cell(s.entries)}${cell(s.branches)}${cell(s.stallStops, true)}${cell(s.stalledLeaves, true)}${cell(s.recoveries)}
  <td class="${s.toolLoopEpisodes > 0 ? "bad" : ""}" title="${count(s.toolLoopWastedCalls, "call")} wasted">${s.toolLoopEpisodes}</td>
  <td>${s.denials} in ${count(s.deniedScopes, "scope")}</td>
  <td class="${VERIFICATION_TONE[s.verification.outcome]}" title="${escapeHtml(verificationText(s.verification))}">${escapeHtml(s.verification.outcome)} (r${s.verification.revision})</td>
  <td class="${tone}">${s.unusable ? "unusable by the host; " : ""}${diagnostics}</td>
</tr>`;
    })
    .join("\n");
  return `${pageStart(title, PAGE_CSS)}
<div class="index">
<h1>${escapeHtml(title)}</h1>
<p class="muted">${rows.length} session file${rows.length === 1 ? "" : "s"}. Stall stops, recoveries and denials count kit host entries and tool results anywhere in the file; verification is the active branch's (${escapeHtml(REVISION_NOTE)}).</p>
<table class="grid" id="sessions">
<tr><th>session</th><th>entries</th><th>branches</th><th>stall stops</th><th>stalled leaves</th><th>recoveries</th><th>tool-loop episodes</th><th>denials</th><th>verification</th><th>diagnostics</th></tr>
${body}
</table>
</div>
</body>
</html>
`;
}
