/**
 * Client script, part 4: the tree of branches, the branch and model-view lists, selection, filters and deep links
 * (`#leafId=...&entryId=...`). Everything is rendered lazily: tree nodes when expanded, list rows when in view.
 */
export const CLIENT_UI_MAIN_JS = String.raw`
var ROW = 26;
var STATUS = [null, null, ["omitted", "left out of the model view by the recovery view"],
  ["not in context", "the host does not send it: compacted away or edited out"],
  ["re-sent", "summarised away by a compaction; the recovery view sends this user message again"]];
var STATUS_CLASS = ["", "", " st-omitted", " st-out", " st-readded"];

function matchesFilter(A, e) {
  if (A.filter === "user") return (A.D.flags[e] & MSG_MASK) === 1;
  if (A.filter === "kit") return (A.D.flags[e] & (F_KIT | F_KIT_INVALID)) !== 0;
  return true;
}

function rebuildRows(A) {
  A.rows = [];
  for (var p = 0; p < A.path.length; p++) if (matchesFilter(A, A.path[p])) A.rows.push(p);
  A.viewRows = [];
  if (A.proj) for (var k = 0; k < A.proj.view.length; k++) if (A.proj.view[k] < 0 || matchesFilter(A, A.proj.view[k])) A.viewRows.push(k);
  A.branchList.setCount(A.rows.length);
  A.viewList.setCount(A.viewRows.length);
  renderHeads(A);
}

function rowOf(A, e) {
  var p = A.pos.has(e) ? A.pos.get(e) : -1, lo = 0, hi = A.rows.length - 1;
  while (lo <= hi) {
    var mid = (lo + hi) >> 1;
    if (A.rows[mid] === p) return mid;
    if (A.rows[mid] < p) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}

function rowCells(A, e, gutter, status) {
  var D = A.D, label = D.labels.get(e), preview = (label != null ? "⚑ " + label + " · " : "") + D.previews[e];
  return [h("span", { cls: "gut", text: gutter }), h("span", { cls: "ln", text: D.lines[e] }), h("span", { cls: "id", text: D.ids[e] }),
    h("span", { cls: "kind", text: kindName(D, e) }), h("span", { cls: "pv", text: preview }),
    status ? h("span", { cls: "st", text: status[0], title: status[1] }) : null];
}

function rowClass(A, e) {
  var f = A.D.flags[e];
  return "row " + kindClass(A.D, e) + (e === A.entry ? " sel" : "") + (f & F_ERROR ? " err" : "") + (f & F_DENIAL ? " denial" : "") +
    (A.proj && e === A.proj.anchor ? " anchor" : "");
}

function branchRow(A, r) {
  var D = A.D, p = A.rows[r], e = A.path[p], st = A.proj ? A.proj.status[p] : 0, kids = childCount(D, e);
  var gutter = (kids > 1 ? "⋔" + kids : "") + (e === D.activeLeaf ? " ★" : "");
  var title = D.ids[e] + (kids > 1 ? " · " + kids + " branches fork here" : "") + "\n" + D.previews[e];
  return h("div", { cls: rowClass(A, e) + STATUS_CLASS[st], data: { entry: e }, title: title }, rowCells(A, e, gutter, STATUS[st]));
}

function viewRow(A, r) {
  var D = A.D, k = A.viewRows[r], e = A.proj.view[k];
  if (e < 0) return h("div", { cls: "row k-meta" }, h("span", { cls: "gut", text: "#" + k }), h("span", { cls: "pv", text: "(message of unknown origin)" }));
  var readded = A.proj.host.indexOf(e) < 0;
  return h("div", { cls: rowClass(A, e) + (readded ? " st-readded" : "") + (k === A.proj.anchorIndex ? " anchor" : ""), data: { entry: e }, title: D.ids[e] + "\n" + D.previews[e] },
    rowCells(A, e, "#" + k, readded ? STATUS[4] : null));
}

function renderHeads(A) {
  var D = A.D, leaf = A.leaf;
  if (leaf < 0) { fill(byId("branch-head"), "No branch."); fill(byId("view-head")); return; }
  fill(byId("branch-head"), h("b", null, "Branch to leaf ", leafLink(D, leaf)), leaf === D.activeLeaf ? " ★ active" : "",
    " · " + count(A.path.length, "entry", "entries") + " from the root",
    A.filter === "all" ? "" : " · " + A.rows.length + " shown (" + (A.filter === "user" ? "user messages" : "kit events") + ")",
    h("div", null, A.proj ? "Struck-out rows are omitted from what the model receives." : ""));
  var P = A.proj;
  if (!P) {
    fill(byId("view-head"), h("b", null, "Model view not embedded"),
      h("div", { text: "The page's size budget left this leaf out: run  context-kit view " + D.M.file + " --leaf " + D.ids[leaf] }));
    return;
  }
  var o = P.omitted;
  fill(byId("view-head"), h("b", { text: "What the model receives: " + count(P.view.length, "message") }),
    P.anchor >= 0 ? [" · recovery view from marker ", entryLink(D, P.anchor)] : " · as the host builds it",
    h("div", { text: "omitted " + count(o.assistant, "assistant reply", "assistant replies") + ", " + count(o.toolResult, "tool result") + ", " +
      o.other + " other · ~" + P.tokens.view + " of ~" + P.tokens.full + " tokens" }));
}

function firstUserOf(A, b) {
  if (b.firstUser != null) return b.firstUser;
  var D = A.D, found = -1;
  for (var c = b.leaf; c >= 0; c = D.parents[c]) {
    if ((D.flags[c] & MSG_MASK) === 1) found = c;
    if (c === b.start) break;
  }
  b.firstUser = found >= 0 ? found : b.start;
  return b.firstUser;
}

function treeNode(A, b, level) {
  var D = A.D, kids = b.children.length, li = h("li", { role: "treeitem", "aria-expanded": kids ? "false" : null });
  var tog = kids ? h("button", { cls: "tog", title: "branches that fork off this one", text: "▸" }) : h("span", { cls: "tog" });
  var stalled = A.S.summaryAt(b.leaf).recovery.stalled;
  var node = h("div", { cls: "node", data: { leaf: b.leaf } }, tog,
    h("div", { cls: "l1" }, b.leaf === D.activeLeaf ? h("span", { cls: "star", title: "active leaf", text: "★" }) : null,
      h("span", { cls: "nid", text: D.ids[b.leaf] }),
      h("span", { cls: "cnt", text: count(b.own, "entry", "entries") + (kids ? " · " + count(kids, "fork") : "") }),
      b.kit ? h("span", { cls: "pill", text: b.kit + " kit" }) : null,
      b.denials ? h("span", { cls: "pill bad", text: b.denials + " denied" }) : null,
      stalled ? h("span", { cls: "pill bad", text: "stalled" }) : null,
      D.flags[b.start] & F_ORPHAN ? h("span", { cls: "pill warn", text: "orphaned" }) : null),
    h("div", { cls: "l2", text: (b.fork >= 0 ? "from " + D.ids[b.fork] + ": " : "") + (D.previews[firstUserOf(A, b)] || kindName(D, b.start)) }));
  node.style.paddingLeft = 6 + Math.min(level, 10) * 14 + "px";
  li.appendChild(node);
  var n = { li: li, node: node, tog: tog, b: b, level: level, ul: null, shown: 0, more: null };
  if (kids) tog.addEventListener("click", function (ev) { ev.stopPropagation(); if (n.ul && !n.ul.hidden) closeNode(n); else openNode(A, n, 0); });
  A.nodes.set(b.leaf, n);
  return li;
}

function openNode(A, n, upTo) {
  if (!n.ul) { n.ul = h("ul", { role: "group" }); n.li.appendChild(n.ul); }
  n.ul.hidden = false;
  n.tog.textContent = "▾";
  n.li.setAttribute("aria-expanded", "true");
  var total = n.b.children.length, want = Math.min(total, Math.max(n.shown, 100, upTo + 1));
  if (n.more) { n.more.remove(); n.more = null; }
  for (var k = n.shown; k < want; k++) n.ul.appendChild(treeNode(A, n.b.children[k], n.level + 1));
  n.shown = want;
  if (want < total) {
    n.more = h("button", { cls: "more", text: "show " + Math.min(100, total - want) + " more of " + (total - want) });
    n.more.addEventListener("click", function (ev) { ev.stopPropagation(); openNode(A, n, n.shown + 99); });
    n.ul.appendChild(n.more);
  }
}

function closeNode(n) { n.ul.hidden = true; n.tog.textContent = "▸"; n.li.setAttribute("aria-expanded", "false"); }

/** Opens nodes breadth first while at most budget nodes are shown, so small trees show every fork at once. */
function openFirstLevels(A, budget) {
  var queue = A.B.tops.slice(), shown = queue.length;
  while (queue.length > 0) {
    var b = queue.shift();
    if (b.children.length === 0) continue;
    if (shown + b.children.length > budget) break;
    openNode(A, A.nodes.get(b.leaf), 0);
    shown += b.children.length;
    queue.push.apply(queue, b.children);
  }
}

/** Opens the tree down to the selected branch and marks it. */
function revealBranch(A) {
  if (A.selNode) A.selNode.node.classList.remove("sel");
  var chain = [];
  for (var b = A.B.byLeaf.get(A.leaf); b; b = b.parent >= 0 ? A.B.byLeaf.get(b.parent) : null) chain.push(b);
  for (var k = chain.length - 1; k > 0; k--) {
    var n = A.nodes.get(chain[k].leaf);
    openNode(A, n, chain[k].children.indexOf(chain[k - 1]));
  }
  A.selNode = A.nodes.get(A.leaf) || null;
  if (A.selNode) {
    A.selNode.node.classList.add("sel");
    A.selNode.node.scrollIntoView({ block: "nearest" });
  }
}

function selectLeaf(A, leaf, entry) {
  var D = A.D;
  if (leaf !== A.leaf) {
    A.leaf = leaf;
    A.path = leaf >= 0 ? pathTo(D, leaf) : [];
    A.pos = new Map();
    for (var p = 0; p < A.path.length; p++) A.pos.set(A.path[p], p);
    A.proj = leaf >= 0 ? A.project(leaf) : null;
    if (A.compareFollows) A.compare[0] = leaf;
    rebuildRows(A);
    if (leaf >= 0) revealBranch(A);
  }
  A.entry = A.pos.has(entry) ? entry : leaf;
  A.branchList.reveal(rowOf(A, A.entry));
  if (A.proj) A.viewList.reveal(A.viewRows.indexOf(A.proj.view.indexOf(A.entry)));
  renderStateTab(A);
  if (A.tab === "compare") renderCompareTab(A);
  var hash = leaf >= 0 ? hashFor({ leafId: D.ids[leaf], entryId: D.ids[A.entry] }) : "";
  if (location.hash !== hash) history.replaceState(null, "", hash || location.pathname);
}

function selectEntry(A, e) { selectLeaf(A, A.pos.has(e) ? A.leaf : A.B.best[e], e); }

function notice(text) { byId("notice").textContent = text; }

/** The leaf and entry a deep link names; an entry off the named branch selects a branch through it. */
function fromHash(A) {
  var D = A.D, params = new URLSearchParams(location.hash.replace(/^#/, "")), notes = [];
  function find(name) {
    var id = params.get(name);
    if (id == null) return -1;
    if (D.idIndex.has(id)) return D.idIndex.get(id);
    notes.push("No entry " + id + " in this session (" + name + ").");
    return -1;
  }
  var leaf = find("leafId"), entry = find("entryId");
  if (leaf >= 0 && childCount(D, leaf) > 0) leaf = A.B.best[leaf];
  if (entry >= 0 && (leaf < 0 || pathTo(D, leaf).indexOf(entry) < 0)) {
    if (leaf >= 0) notes.push("Entry " + D.ids[entry] + " is not on the branch to " + D.ids[leaf] + ": showing a branch through it.");
    leaf = A.pos.has(entry) ? A.leaf : A.B.best[entry];
  }
  notice(notes.join(" "));
  if (leaf < 0) return null;
  return { leaf: leaf, entry: entry >= 0 ? entry : leaf };
}

function showTab(A, name) {
  A.tab = name;
  ["state", "compare", "diagnostics"].forEach(function (t) {
    byId("tab-" + t).hidden = t !== name;
    byId("tab-btn-" + t).classList.toggle("on", t === name);
  });
  if (name === "compare") renderCompareTab(A);
}

function wire(A) {
  document.addEventListener("click", function (ev) {
    var t = ev.target.closest ? ev.target.closest("[data-entry],[data-leaf],[data-filter],[data-tab]") : null;
    if (!t) return;
    if (t.dataset.filter) { setFilter(A, t.dataset.filter); return; }
    if (t.dataset.tab) { showTab(A, t.dataset.tab); return; }
    ev.preventDefault();
    if (t.dataset.entry != null) selectEntry(A, Number(t.dataset.entry));
    else { var leaf = Number(t.dataset.leaf); selectLeaf(A, leaf, leaf); }
  });
  byId("show-view").addEventListener("change", function (ev) { setViewShown(A, ev.target.checked); });
  byId("branch-list").addEventListener("keydown", function (ev) {
    if (ev.key !== "ArrowDown" && ev.key !== "ArrowUp") return;
    ev.preventDefault();
    var r = rowOf(A, A.entry), next = r < 0 ? 0 : r + (ev.key === "ArrowDown" ? 1 : -1);
    if (next >= 0 && next < A.rows.length) selectEntry(A, A.path[A.rows[next]]);
  });
  window.addEventListener("hashchange", function () {
    var target = fromHash(A);
    if (target) selectLeaf(A, target.leaf, target.entry);
  });
}

function setFilter(A, filter) {
  A.filter = filter;
  document.querySelectorAll("[data-filter]").forEach(function (b) { b.classList.toggle("on", b.dataset.filter === filter); });
  rebuildRows(A);
  A.branchList.reveal(rowOf(A, A.entry));
}

function setViewShown(A, shown) {
  byId("view-col").hidden = !shown;
  byId("lists").classList.toggle("two", shown);
  A.viewList.refresh();
  A.branchList.refresh();
}

/** The embedded model: plain JSON, or gzip + base64 for a large session. */
function readModel() {
  var el = byId("session-data");
  if (el.dataset.encoding !== "gzip+base64") return Promise.resolve(JSON.parse(el.textContent));
  if (typeof DecompressionStream === "undefined") {
    return Promise.reject(new Error("this browser cannot unpack the compressed session data (no DecompressionStream)"));
  }
  var text = atob(el.textContent.trim()), bytes = new Uint8Array(text.length);
  for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text().then(JSON.parse);
}

function startReport(M, t0) {
  var t1 = performance.now();
  var D = decodeModel(M);
  var A = { D: D, S: makeStates(D), B: makeBranches(D), project: makeProjections(D), leaf: -2, entry: -1, filter: "all",
    path: [], pos: new Map(), rows: [], viewRows: [], proj: null, nodes: new Map(), selNode: null, tab: "state",
    compare: [-1, -1], compareFollows: true };
  A.branchList = VirtualList(byId("branch-list"), ROW, function (r) { return branchRow(A, r); });
  A.viewList = VirtualList(byId("view-list"), ROW, function (r) { return viewRow(A, r); });
  var tree = h("ul", { cls: "tree", role: "tree" });
  A.B.tops.forEach(function (b) { tree.appendChild(treeNode(A, b, 0)); });
  fill(byId("tree"), tree);
  openFirstLevels(A, 60);
  wire(A);
  renderDiagnosticsTab(A);
  var start = fromHash(A) || { leaf: D.activeLeaf, entry: D.activeLeaf };
  var other = D.leaves.filter(function (l) { return l !== start.leaf; });
  A.compare = [start.leaf, D.activeLeaf !== start.leaf ? D.activeLeaf : other.length ? other[other.length - 1] : start.leaf];
  setViewShown(A, byId("show-view").checked);
  selectLeaf(A, start.leaf, start.entry);
  if (D.n === 0) showTab(A, "diagnostics");
  var t2 = performance.now();
  window.reportTiming = { dataMs: Math.round(t1 - t0), readyMs: Math.round(t2 - t0), entries: D.n };
  document.documentElement.dataset.ready = "true";
}

function showFatal(error) {
  var box = document.createElement("div");
  box.className = "fatal";
  box.textContent = "This report could not be shown: " + (error && error.message ? error.message : String(error));
  document.body.prepend(box);
  document.documentElement.dataset.ready = "error";
  console.error(error);
}

var started = performance.now();
readModel().then(function (M) { startReport(M, started); }).catch(showFatal);
`;
