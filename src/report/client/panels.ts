/** The side panels: the selected entry and the folded state at it, two branches' states side by side, diagnostics. */

import type { CheckSummary, StateSummary } from "../../fold/state-summary.js";
import { lostPathText } from "../../tree/lost-path.js";
import type { App } from "./app.js";
import { childCount, FLAG, kindName, pathTo } from "./data.js";
import { byId, type Child, count, entryLink, fill, h, hashFor, kindClass, leafLink } from "./dom.js";

const CHECKS = ["app_build", "app_test"] as const;

function checkText(c: CheckSummary | undefined): string {
  if (!c) return "not run";
  return `${c.status} (r${c.revision}, by ${c.by}${c.testsRun != null ? `, ${count(c.testsRun, "test")}` : ""})`;
}

function statusPill(status: string): HTMLElement {
  const cls = status === "passed" ? "good" : status === "failed" || status === "error" ? "bad" : "warn";
  return h("span", { cls: `pill ${cls}`, text: status });
}

function section(title: string, changed: boolean): HTMLElement {
  return h(
    "h3",
    null,
    title,
    changed ? h("span", { cls: "pill", title: "this entry changed it", text: "changed here" }) : null,
  );
}

function idOrNull(A: App, id: string | null | undefined): number {
  return id == null ? -1 : (A.D.idIndex.get(id) ?? -1);
}

function entryCard(A: App, i: number): HTMLElement {
  const D = A.D;
  const parent = D.parents[i]!;
  const kids = childCount(D, i);
  const f = D.flags[i]!;
  const detail = D.details.get(i);
  const notes: Child[] = [];
  if (f & FLAG.kit) notes.push(h("span", { cls: "pill", text: "kit host entry" }));
  if (f & FLAG.kitInvalid) notes.push(h("span", { cls: "pill warn", text: "kit type, fails its schema: ignored" }));
  if (f & FLAG.denial) notes.push(h("span", { cls: "pill bad", text: "denial" }));
  if (f & FLAG.loop) notes.push(h("span", { cls: "pill bad", text: "tool-loop episode" }));
  if (f & FLAG.hostEcho) notes.push(h("span", { cls: "pill warn", text: "host echo: not a reply" }));
  if (f & FLAG.error) notes.push(h("span", { cls: "pill bad", text: "error" }));
  if (f & FLAG.orphan) notes.push(h("span", { cls: "pill bad", text: "orphaned: parent missing" }));
  return h(
    "div",
    { cls: "card", id: "entry-card", data: { entry: i } },
    h(
      "div",
      { cls: "head" },
      h("span", { cls: `badge ${kindClass(D, i)}`, text: kindName(D, i) }),
      h("b", { cls: "mono", text: D.ids[i] }),
      h("span", { cls: "muted", text: `line ${D.lines[i]}` }),
      h("a", { href: hashFor({ leafId: D.ids[A.leaf], entryId: D.ids[i] }), title: "deep link to this entry" }, "link"),
      notes,
    ),
    h(
      "dl",
      { cls: "kv" },
      h("dt", null, "parent"),
      h("dd", null, parent >= 0 ? entryLink(D, parent) : "root"),
      h("dt", null, "children"),
      h("dd", null, kids > 1 ? `${count(kids, "branch", "branches")} fork here` : String(kids)),
      D.labels.has(i) ? [h("dt", null, "label"), h("dd", { text: D.labels.get(i) ?? "" })] : null,
    ),
    h("div", { cls: "pvfull", text: D.previews[i] || "(no text)" }),
    detail != null
      ? h("details", { id: "entry-record" }, h("summary", null, "record"), h("pre", { cls: "record", text: detail }))
      : h("div", {
          cls: "muted",
          text: `Full record not embedded (page size budget): see line ${D.lines[i]} of the file.`,
        }),
  );
}

function stateView(A: App, i: number): Child[] {
  const D = A.D;
  const s = A.S.summaryAt(i);
  const changed = A.S.changedAt(i);
  const has = (name: string) => (changed as string[]).includes(name);
  const out: Child[] = [];
  const req = idOrNull(A, s.request.currentRequestId);
  out.push(section("Request", has("request") || has("session")));
  out.push(
    h(
      "dl",
      { cls: "kv" },
      h("dt", null, "current request"),
      h("dd", null, entryLink(D, req), req >= 0 ? h("div", { cls: "muted", text: D.previews[req] }) : null),
      h("dt", null, "model"),
      h("dd", { text: `${s.session.model || "-"} · thinking ${s.session.thinkingLevel}` }),
    ),
  );
  out.push(section("Denied scopes", has("denials")));
  out.push(
    gridOrNone(s.denials, ["scope", "status", "count", "first", "last"], (d) => [
      h("td", { cls: "mono wrap", text: d.scope }),
      h("td", { text: d.status }),
      h("td", { text: `×${d.count}` }),
      h("td", null, entryLink(D, idOrNull(A, d.firstEntryId))),
      h("td", null, entryLink(D, idOrNull(A, d.lastEntryId))),
    ]),
  );
  out.push(section("File issues", has("fileIssues")));
  out.push(
    gridOrNone(s.fileIssues, ["path", "code", "entry"], (f) => [
      h("td", { cls: "mono wrap", text: f.path }),
      h("td", { text: f.code }),
      h("td", null, entryLink(D, idOrNull(A, f.entryId))),
    ]),
  );
  const v = s.verification;
  out.push(section("Verification", has("verification")));
  out.push(
    h(
      "dl",
      { cls: "kv" },
      h("dt", { title: "file changes (write, edit) on this branch so far" }, "revision"),
      h(
        "dd",
        null,
        `r${v.revision}`,
        h("span", { cls: "muted", text: ` (${count(v.revision, "file change")} on this branch)` }),
        v.incomplete ? [" ", statusPill("incomplete")] : null,
      ),
      CHECKS.map((name) => {
        const c = v.checks[name];
        return [
          h("dt", null, name),
          h(
            "dd",
            null,
            c
              ? [
                  statusPill(c.status),
                  ` r${c.revision} by ${c.by}${c.testsRun != null ? `, ${count(c.testsRun, "test")}` : ""} `,
                  entryLink(D, idOrNull(A, c.entryId)),
                ]
              : h("span", { cls: "muted", text: "not run for this revision" }),
          ),
        ];
      }),
      h("dt", null, "rounds"),
      h("dd", { text: `${v.roundsThisRequest} of 3 automatic rounds in this request` }),
    ),
  );
  const r = s.recovery;
  out.push(section("Recovery", has("recovery")));
  out.push(
    h(
      "dl",
      { cls: "kv" },
      h("dt", null, "anchor"),
      h("dd", null, entryLink(D, idOrNull(A, r.anchorId), r.anchorId || "none")),
      h("dt", null, "recoveries"),
      h("dd", { text: `${r.recoveriesThisRequest} in this request (max 1)` }),
      h("dt", null, "stalled"),
      h("dd", null, r.stalled ? h("span", { cls: "pill bad", text: "stalled" }) : "no"),
      h("dt", null, "promise run"),
      h(
        "dd",
        null,
        r.promiseEntryIds.length === 0
          ? "none"
          : r.promiseEntryIds.map((id, k) => [k ? ", " : "", entryLink(D, idOrNull(A, id))]),
      ),
    ),
  );
  return out;
}

export function renderStateTab(A: App): void {
  const i = A.entry;
  const el = byId("tab-state");
  if (i < 0) {
    fill(el, h("p", { cls: "empty", text: "This session has no entries." }));
    return;
  }
  fill(el, entryCard(A, i), h("div", { id: "state-at-entry" }, stateView(A, i)));
}

interface StateRows {
  rows: [string, string][];
  scopes: Record<string, string>;
  files: Record<string, string>;
}

/** Rows [field, text] of a state summary, for the side-by-side comparison. */
function stateRows(s: StateSummary): StateRows {
  const rows: [string, string][] = [
    ["current request", s.request.currentRequestId || "-"],
    ["model", s.session.model || "-"],
    ["thinking", s.session.thinkingLevel],
  ];
  const scopes: Record<string, string> = {};
  for (const d of s.denials) scopes[d.scope] = `${d.status} ×${d.count}`;
  rows.push(["denied scopes", String(s.denials.length)]);
  const files: Record<string, string> = {};
  for (const f of s.fileIssues) files[f.path] = f.code;
  rows.push(["file issues", String(s.fileIssues.length)]);
  rows.push(["revision", `r${s.verification.revision}`]);
  for (const name of CHECKS) rows.push([name, checkText(s.verification.checks[name])]);
  rows.push(
    ["rounds", String(s.verification.roundsThisRequest)],
    ["incomplete", s.verification.incomplete ? "yes" : "no"],
  );
  rows.push(
    ["recovery anchor", s.recovery.anchorId || "-"],
    ["recoveries", String(s.recovery.recoveriesThisRequest)],
    ["stalled", s.recovery.stalled ? "yes" : "no"],
    ["promise run", s.recovery.promiseEntryIds.join(", ") || "-"],
  );
  return { rows, scopes, files };
}

function compareTable(a: StateSummary, b: StateSummary): HTMLTableRowElement[] {
  const ra = stateRows(a);
  const rb = stateRows(b);
  const trs: HTMLTableRowElement[] = [];
  const row = (field: string, x: string, y: string): void => {
    trs.push(
      h(
        "tr",
        { cls: x === y ? "" : "diff" },
        h("td", { cls: "muted field", text: field }),
        h("td", { cls: "wrap", text: x }),
        h("td", { cls: "wrap", text: y }),
      ),
    );
  };
  for (const [k, [field, x]] of ra.rows.entries()) row(field, x, rb.rows[k]?.[1] ?? "-");
  const union = (x: Record<string, string>, y: Record<string, string>) =>
    [...new Set([...Object.keys(x), ...Object.keys(y)])].sort();
  for (const k of union(ra.scopes, rb.scopes)) row(`denied ${k}`, ra.scopes[k] || "-", rb.scopes[k] || "-");
  for (const k of union(ra.files, rb.files)) row(`file ${k}`, ra.files[k] || "-", rb.files[k] || "-");
  return trs;
}

function leafOption(A: App, leaf: number, chosen: number): HTMLOptionElement {
  const D = A.D;
  const text = `${leaf === D.activeLeaf ? "★ " : ""}${D.ids[leaf]} · depth ${D.depth[leaf]} · ${(
    D.previews[leaf] || kindName(D, leaf)
  ).slice(0, 50)}`;
  return h("option", { value: leaf, selected: leaf === chosen ? "selected" : null, text });
}

export function renderCompareTab(A: App): void {
  const D = A.D;
  const el = byId("tab-compare");
  if (D.leaves.length === 0) {
    fill(el, h("p", { cls: "empty", text: "No branches." }));
    return;
  }
  const [a, b] = A.compare;
  const picker = (k: 0 | 1): Child[] => {
    const select: HTMLSelectElement = h(
      "select",
      {
        id: `compare-${"ab"[k]}`,
        "aria-label": `branch ${"AB"[k]}`,
        on: {
          change: () => {
            A.compare[k] = Number(select.value);
            A.compareFollows = false;
            renderCompareTab(A);
          },
        },
      },
      D.leaves.map((leaf) => leafOption(A, leaf, A.compare[k])),
    );
    const use = () => {
      A.compare[k] = A.leaf;
      A.compareFollows = false;
      renderCompareTab(A);
    };
    return [
      h("b", { text: "AB"[k] }),
      select,
      h("button", { title: "use the selected branch", on: { click: use } }, "use selected"),
    ];
  };
  let fork = -1;
  const pa = pathTo(D, a);
  const onB = new Set(pathTo(D, b));
  for (let k = pa.length - 1; k >= 0; k--) {
    if (onB.has(pa[k]!)) {
      fork = pa[k]!;
      break;
    }
  }
  const trs = compareTable(A.S.summaryAt(a), A.S.summaryAt(b));
  const differing = trs.filter((tr) => tr.className === "diff").length;
  const swap = () => {
    A.compare.reverse();
    A.compareFollows = false;
    renderCompareTab(A);
  };
  fill(
    el,
    h("div", { cls: "cmp-controls" }, picker(0), picker(1)),
    h(
      "p",
      null,
      h("button", { cls: "linkbtn", on: { click: swap } }, "swap"),
      " ",
      fork >= 0
        ? [
            "The branches share ",
            entryLink(D, fork),
            ` (line ${D.lines[fork]}); then A has ${D.depth[a]! - D.depth[fork]!} and B ${
              D.depth[b]! - D.depth[fork]!
            } more entries.`,
          ]
        : "The branches share no root.",
      " ",
      h("b", { text: differing === 0 ? "Same state." : `${count(differing, "field")} differ.` }),
    ),
    h(
      "table",
      { cls: "grid", id: "compare-table" },
      h(
        "tr",
        null,
        h("th", null, "state at leaf"),
        h("th", null, "A ", leafLink(D, a)),
        h("th", null, "B ", leafLink(D, b)),
      ),
      trs,
    ),
  );
}

export function renderDiagnosticsTab(A: App): void {
  const D = A.D;
  const list = D.diagnostics;
  const el = byId("tab-diagnostics");
  if (list.length === 0) {
    fill(el, h("p", { cls: "empty", text: "No diagnostics: the host reads every line of this file as written." }));
    return;
  }
  fill(
    el,
    h("p", {
      cls: "muted",
      text: "What the reader found, in line order: lines the host silently drops, and the branches a lost line cuts off from their root.",
    }),
    list.map((d) => {
      const leaves = d.orphanLeaves.slice(0, 12);
      return h(
        "div",
        { cls: `diag ${d.severity}` },
        h(
          "div",
          null,
          h("b", { text: d.code }),
          " ",
          h("span", { cls: "muted", text: `${d.severity} · line ${d.line}` }),
          d.entry >= 0 ? [" · ", entryLink(D, d.entry)] : null,
        ),
        h("div", { cls: "msg", text: d.message }),
        d.orphanLeaves.length > 0
          ? h(
              "div",
              { cls: "msg" },
              `${lostPathText(d.lost)}; branches: `,
              leaves.map((leaf, k) => [k ? ", " : "", leafLink(D, leaf)]),
              d.orphanLeaves.length > leaves.length ? ` and ${d.orphanLeaves.length - leaves.length} more` : "",
            )
          : null,
      );
    }),
  );
}

/** A table of one row per item under its headings, or "none" when there is no item. */
function gridOrNone<T>(items: readonly T[], headings: readonly string[], cells: (item: T) => Child[]): HTMLElement {
  if (items.length === 0) return h("div", { cls: "empty", text: "none" });
  return h(
    "table",
    { cls: "grid" },
    h("tr", null, ...headings.map((t) => h("th", null, t))),
    items.map((item) => h("tr", null, ...cells(item))),
  );
}
