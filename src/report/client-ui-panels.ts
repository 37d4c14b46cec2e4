/**
 * Client script, part 3: the side panels. The selected entry and the folded state at it, two branches' states side
 * by side, and the reader's diagnostics.
 */
export const CLIENT_UI_PANELS_JS = `
var CHECKS = ["app_build", "app_test"];

function checkText(c) {
  if (!c) return "not run";
  return c.status + " (r" + c.revision + ", by " + c.by + (c.testsRun != null ? ", " + count(c.testsRun, "test") : "") + ")";
}

function statusPill(status) {
  var cls = status === "passed" ? "good" : status === "failed" || status === "error" ? "bad" : "warn";
  return h("span", { cls: "pill " + cls, text: status });
}

function section(title, changed) {
  return h("h3", null, title, changed ? h("span", { cls: "pill", title: "this entry changed it", text: "changed here" }) : null);
}

function idOrNull(A, id) { return id == null ? -1 : A.D.idIndex.has(id) ? A.D.idIndex.get(id) : -1; }

function entryCard(A, i) {
  var D = A.D, parent = D.parents[i], kids = childCount(D, i), f = D.flags[i];
  var detail = D.details.get(i);
  var notes = [];
  if (f & F_KIT) notes.push(h("span", { cls: "pill", text: "kit host entry" }));
  if (f & F_KIT_INVALID) notes.push(h("span", { cls: "pill warn", text: "kit type, fails its schema: ignored" }));
  if (f & F_DENIAL) notes.push(h("span", { cls: "pill bad", text: "denial" }));
  if (f & F_ERROR) notes.push(h("span", { cls: "pill bad", text: "error" }));
  if (f & F_ORPHAN) notes.push(h("span", { cls: "pill bad", text: "orphaned: parent missing" }));
  return h("div", { cls: "card", id: "entry-card", data: { entry: i } },
    h("div", { cls: "head" },
      h("span", { cls: "badge " + kindClass(D, i), text: kindName(D, i) }),
      h("b", { cls: "mono", text: D.ids[i] }),
      h("span", { cls: "muted", text: "line " + D.lines[i] }),
      h("a", { href: hashFor({ leafId: D.ids[A.leaf], entryId: D.ids[i] }), title: "deep link to this entry" }, "link"),
      notes),
    h("dl", { cls: "kv" },
      h("dt", null, "parent"), h("dd", null, parent >= 0 ? entryLink(D, parent) : "root"),
      h("dt", null, "children"), h("dd", null, kids > 1 ? count(kids, "branch", "branches") + " fork here" : String(kids)),
      D.labels.has(i) ? [h("dt", null, "label"), h("dd", { text: D.labels.get(i) })] : null),
    h("div", { cls: "pvfull", text: D.previews[i] || "(no text)" }),
    detail != null
      ? h("details", null, h("summary", null, "record"), h("pre", { cls: "record", text: detail }))
      : h("div", { cls: "muted", text: "Full record not embedded (page size budget): see line " + D.lines[i] + " of the file." }));
}

function stateView(A, i) {
  var D = A.D, s = A.S.summaryAt(i), changed = A.S.changedAt(i);
  var has = function (name) { return changed.indexOf(name) >= 0; };
  var out = [];
  var req = idOrNull(A, s.request.currentRequestId);
  out.push(section("Request", has("request") || has("session")));
  out.push(h("dl", { cls: "kv" },
    h("dt", null, "current request"), h("dd", null, entryLink(D, req), req >= 0 ? h("div", { cls: "muted", text: D.previews[req] }) : null),
    h("dt", null, "model"), h("dd", { text: (s.session.model || "-") + " · thinking " + s.session.thinkingLevel })));
  out.push(section("Denied scopes", has("denials")));
  out.push(s.denials.length === 0 ? h("div", { cls: "empty", text: "none" }) : h("table", { cls: "grid" },
    h("tr", null, h("th", null, "scope"), h("th", null, "status"), h("th", null, "count"), h("th", null, "first"), h("th", null, "last")),
    s.denials.map(function (d) {
      return h("tr", null, h("td", { cls: "mono wrap", text: d.scope }), h("td", { text: d.status }), h("td", { text: "×" + d.count }),
        h("td", null, entryLink(D, idOrNull(A, d.firstEntryId))), h("td", null, entryLink(D, idOrNull(A, d.lastEntryId))));
    })));
  out.push(section("File issues", has("fileIssues")));
  out.push(s.fileIssues.length === 0 ? h("div", { cls: "empty", text: "none" }) : h("table", { cls: "grid" },
    h("tr", null, h("th", null, "path"), h("th", null, "code"), h("th", null, "entry")),
    s.fileIssues.map(function (f) {
      return h("tr", null, h("td", { cls: "mono wrap", text: f.path }), h("td", { text: f.code }), h("td", null, entryLink(D, idOrNull(A, f.entryId))));
    })));
  var v = s.verification;
  out.push(section("Verification", has("verification")));
  out.push(h("dl", { cls: "kv" },
    h("dt", null, "revision"), h("dd", null, "r" + v.revision, v.incomplete ? [" ", statusPill("incomplete")] : null),
    CHECKS.map(function (name) {
      var c = v.checks[name];
      return [h("dt", null, name), h("dd", null, c ? [statusPill(c.status), " r" + c.revision + " by " + c.by +
        (c.testsRun != null ? ", " + count(c.testsRun, "test") : "") + " ", entryLink(D, idOrNull(A, c.entryId))] : h("span", { cls: "muted", text: "not run for this revision" }))];
    }),
    h("dt", null, "rounds"), h("dd", { text: v.roundsThisRequest + " of 3 automatic rounds in this request" })));
  var r = s.recovery;
  out.push(section("Recovery", has("recovery")));
  out.push(h("dl", { cls: "kv" },
    h("dt", null, "anchor"), h("dd", null, entryLink(D, idOrNull(A, r.anchorId), r.anchorId || "none")),
    h("dt", null, "recoveries"), h("dd", { text: r.recoveriesThisRequest + " in this request (max 1)" }),
    h("dt", null, "stalled"), h("dd", null, r.stalled ? h("span", { cls: "pill bad", text: "stalled" }) : "no"),
    h("dt", null, "promise run"), h("dd", null, r.promiseEntryIds.length === 0 ? "none" :
      r.promiseEntryIds.map(function (id, k) { return [k ? ", " : "", entryLink(D, idOrNull(A, id))]; }))));
  return out;
}

function renderStateTab(A) {
  var i = A.entry, el = byId("tab-state");
  if (i < 0) { fill(el, h("p", { cls: "empty", text: "This session has no entries." })); return; }
  fill(el, entryCard(A, i), h("div", { id: "state-at-entry" }, stateView(A, i)));
}

/** Rows [field, text] of a state summary, for the side-by-side comparison. */
function stateRows(s) {
  var rows = [["current request", s.request.currentRequestId || "-"], ["model", s.session.model || "-"],
    ["thinking", s.session.thinkingLevel]];
  var scopes = {};
  s.denials.forEach(function (d) { scopes[d.scope] = d.status + " ×" + d.count; });
  rows.push(["denied scopes", String(s.denials.length)]);
  var files = {};
  s.fileIssues.forEach(function (f) { files[f.path] = f.code; });
  rows.push(["file issues", String(s.fileIssues.length)]);
  rows.push(["revision", "r" + s.verification.revision]);
  CHECKS.forEach(function (name) { rows.push([name, checkText(s.verification.checks[name])]); });
  rows.push(["rounds", String(s.verification.roundsThisRequest)], ["incomplete", s.verification.incomplete ? "yes" : "no"]);
  rows.push(["recovery anchor", s.recovery.anchorId || "-"], ["recoveries", String(s.recovery.recoveriesThisRequest)],
    ["stalled", s.recovery.stalled ? "yes" : "no"], ["promise run", s.recovery.promiseEntryIds.join(", ") || "-"]);
  return { rows: rows, scopes: scopes, files: files };
}

function compareTable(a, b) {
  var ra = stateRows(a), rb = stateRows(b), trs = [];
  function row(field, x, y) {
    trs.push(h("tr", { cls: x === y ? "" : "diff" }, h("td", { cls: "muted field", text: field }), h("td", { cls: "wrap", text: x }), h("td", { cls: "wrap", text: y })));
  }
  ra.rows.forEach(function (r, k) { row(r[0], r[1], rb.rows[k][1]); });
  var keys = {};
  Object.keys(ra.scopes).concat(Object.keys(rb.scopes)).forEach(function (k) { keys[k] = 1; });
  Object.keys(keys).sort().forEach(function (k) { row("denied " + k, ra.scopes[k] || "-", rb.scopes[k] || "-"); });
  keys = {};
  Object.keys(ra.files).concat(Object.keys(rb.files)).forEach(function (k) { keys[k] = 1; });
  Object.keys(keys).sort().forEach(function (k) { row("file " + k, ra.files[k] || "-", rb.files[k] || "-"); });
  return trs;
}

function leafOption(A, leaf, chosen) {
  var D = A.D;
  var text = (leaf === D.activeLeaf ? "★ " : "") + D.ids[leaf] + " · depth " + D.depth[leaf] + " · " + (D.previews[leaf] || kindName(D, leaf)).slice(0, 50);
  return h("option", { value: leaf, selected: leaf === chosen ? "selected" : null, text: text });
}

function renderCompareTab(A) {
  var D = A.D, el = byId("tab-compare");
  if (D.leaves.length === 0) { fill(el, h("p", { cls: "empty", text: "No branches." })); return; }
  var a = A.compare[0], b = A.compare[1];
  function picker(k) {
    var select = h("select", { id: "compare-" + "ab"[k], "aria-label": "branch " + "AB"[k], on: { change: function () {
      A.compare[k] = Number(select.value); A.compareFollows = false; renderCompareTab(A);
    } } }, D.leaves.map(function (leaf) { return leafOption(A, leaf, A.compare[k]); }));
    return [h("b", { text: "AB"[k] }), select, h("button", { title: "use the selected branch", on: { click: function () {
      A.compare[k] = A.leaf; A.compareFollows = false; renderCompareTab(A);
    } } }, "use selected")];
  }
  var fork = -1, pa = pathTo(D, a), onB = new Set(pathTo(D, b));
  for (var k = pa.length - 1; k >= 0; k--) if (onB.has(pa[k])) { fork = pa[k]; break; }
  var sa = A.S.summaryAt(a), sb = A.S.summaryAt(b), trs = compareTable(sa, sb);
  var differing = trs.filter(function (tr) { return tr.className === "diff"; }).length;
  fill(el,
    h("div", { cls: "cmp-controls" }, picker(0), picker(1)),
    h("p", null, h("button", { cls: "linkbtn", on: { click: function () { A.compare.reverse(); A.compareFollows = false; renderCompareTab(A); } } }, "swap"), " ",
      fork >= 0 ? ["The branches share ", entryLink(D, fork), " (line " + D.lines[fork] + "); then A has " +
        (D.depth[a] - D.depth[fork]) + " and B " + (D.depth[b] - D.depth[fork]) + " more entries."]
        : "The branches share no root.",
      " ", h("b", { text: differing === 0 ? "Same state." : count(differing, "field") + " differ." })),
    h("table", { cls: "grid", id: "compare-table" },
      h("tr", null, h("th", null, "state at leaf"), h("th", null, "A ", leafLink(D, a)), h("th", null, "B ", leafLink(D, b))), trs));
}

function renderDiagnosticsTab(A) {
  var D = A.D, list = A.D.M.diagnostics, el = byId("tab-diagnostics");
  if (list.length === 0) {
    fill(el, h("p", { cls: "empty", text: "No diagnostics: the host reads every line of this file as written." }));
    return;
  }
  fill(el, h("p", { cls: "muted", text: "What the reader found, in line order: lines the host silently drops, and the branches a lost line cuts off from their root." }),
    list.map(function (d) {
      var leaves = d.orphanLeaves.slice(0, 12);
      return h("div", { cls: "diag " + d.severity },
        h("div", null, h("b", { text: d.code }), " ", h("span", { cls: "muted", text: d.severity + " · line " + d.line }),
          d.entry >= 0 ? [" · ", entryLink(D, d.entry)] : null),
        h("div", { cls: "msg", text: d.message }),
        d.orphanLeaves.length > 0 ? h("div", { cls: "msg" }, "orphans " + count(d.orphans.length, "entry", "entries") + "; branches: ",
          leaves.map(function (leaf, k) { return [k ? ", " : "", leafLink(D, leaf)]; }),
          d.orphanLeaves.length > leaves.length ? " and " + (d.orphanLeaves.length - leaves.length) + " more" : "") : null);
    }));
}
`;
