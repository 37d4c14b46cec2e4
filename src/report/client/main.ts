/**
 * The session page's script: the tree of branches, the branch and model-view lists, selection, filters and deep
 * links (`#leafId=...&entryId=...`). Everything is rendered lazily: tree nodes when expanded, list rows when in view.
 */
import type { SessionPageModel } from "../page-model.js";
import type { App, Filter, TabName, TreeNode } from "./app.js";
import {
  type Branch,
  childCount,
  decodeModel,
  FLAG,
  kindName,
  MSG_MASK,
  makeBranches,
  makeProjections,
  makeStates,
  pathTo,
} from "./data.js";
import { byId, count, entryLink, fill, h, hashFor, kindClass, leafLink, virtualList } from "./dom.js";
import { renderCompareTab, renderDiagnosticsTab, renderStateTab } from "./panels.js";

const ROW = 26;
const STATUS: ([string, string] | null)[] = [
  null,
  null,
  ["omitted", "left out of the model view by the recovery view"],
  ["not in context", "the host does not send it: compacted away or edited out"],
  ["re-sent", "summarised away by a compaction; the recovery view sends this user message again"],
];
const STATUS_CLASS = ["", "", " st-omitted", " st-out", " st-readded"];

function matchesFilter(A: App, e: number): boolean {
  if (A.filter === "user") return (A.D.flags[e]! & MSG_MASK) === 1;
  if (A.filter === "kit") return (A.D.flags[e]! & (FLAG.kit | FLAG.kitInvalid)) !== 0;
  return true;
}

function rebuildRows(A: App): void {
  A.rows = [];
  A.path.forEach((e, p) => {
    if (matchesFilter(A, e)) A.rows.push(p);
  });
  A.viewRows = [];
  A.proj?.view.forEach((e, k) => {
    if (e < 0 || matchesFilter(A, e)) A.viewRows.push(k);
  });
  A.branchList.setCount(A.rows.length);
  A.viewList.setCount(A.viewRows.length);
  renderHeads(A);
}

function rowOf(A: App, e: number): number {
  const p = A.pos.get(e) ?? -1;
  let lo = 0;
  let hi = A.rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = A.rows[mid]!;
    if (at === p) return mid;
    if (at < p) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function rowCells(A: App, e: number, gutter: string, status: [string, string] | null | undefined) {
  const D = A.D;
  const label = D.labels.get(e);
  const preview = (label != null ? `⚑ ${label} · ` : "") + D.previews[e];
  return [
    h("span", { cls: "gut", text: gutter }),
    h("span", { cls: "ln", text: D.lines[e] }),
    h("span", { cls: "id", text: D.ids[e] }),
    h("span", { cls: "kind", text: kindName(D, e) }),
    h("span", { cls: "pv", text: preview }),
    status ? h("span", { cls: "st", text: status[0], title: status[1] }) : null,
  ];
}

function rowClass(A: App, e: number): string {
  const f = A.D.flags[e]!;
  return `row ${kindClass(A.D, e)}${e === A.entry ? " sel" : ""}${f & FLAG.error ? " err" : ""}${
    f & FLAG.denial ? " denial" : ""
  }${f & FLAG.loop ? " loop" : ""}${f & FLAG.hostEcho ? " echo" : ""}${A.proj && e === A.proj.anchor ? " anchor" : ""}`;
}

function branchRow(A: App, r: number): HTMLElement {
  const D = A.D;
  const p = A.rows[r]!;
  const e = A.path[p]!;
  const st = A.proj ? A.proj.status[p]! : 0;
  const kids = childCount(D, e);
  const gutter = (kids > 1 ? `⋔${kids}` : "") + (e === D.activeLeaf ? " ★" : "");
  const title = `${D.ids[e]}${kids > 1 ? ` · ${kids} branches fork here` : ""}\n${D.previews[e]}`;
  return h(
    "div",
    { cls: rowClass(A, e) + STATUS_CLASS[st], data: { entry: e }, title },
    rowCells(A, e, gutter, STATUS[st]),
  );
}

function viewRow(A: App, r: number): HTMLElement {
  const D = A.D;
  const P = A.proj!;
  const k = A.viewRows[r]!;
  const e = P.view[k]!;
  if (e < 0) {
    return h(
      "div",
      { cls: "row k-meta" },
      h("span", { cls: "gut", text: `#${k}` }),
      h("span", { cls: "pv", text: "(message of unknown origin)" }),
    );
  }
  const readded = !P.host.includes(e);
  return h(
    "div",
    {
      cls: rowClass(A, e) + (readded ? " st-readded" : "") + (k === P.anchorIndex ? " anchor" : ""),
      data: { entry: e },
      title: `${D.ids[e]}\n${D.previews[e]}`,
    },
    rowCells(A, e, `#${k}`, readded ? STATUS[4] : null),
  );
}

function renderHeads(A: App): void {
  const D = A.D;
  const leaf = A.leaf;
  if (leaf < 0) {
    fill(byId("branch-head"), "No branch.");
    fill(byId("view-head"));
    return;
  }
  fill(
    byId("branch-head"),
    h("b", null, "Branch to leaf ", leafLink(D, leaf)),
    leaf === D.activeLeaf ? " ★ active" : "",
    ` · ${count(A.path.length, "entry", "entries")} from the root`,
    A.filter === "all" ? "" : ` · ${A.rows.length} shown (${A.filter === "user" ? "user messages" : "kit events"})`,
    h("div", null, A.proj ? "Struck-out rows are omitted from what the model receives." : ""),
  );
  const P = A.proj;
  if (!P) {
    fill(
      byId("view-head"),
      h("b", null, "Model view not embedded"),
      h("div", {
        text: `The page's size budget left this leaf out: run  context-kit view ${D.M.file} --leaf ${D.ids[leaf]}`,
      }),
    );
    return;
  }
  const o = P.omitted;
  fill(
    byId("view-head"),
    h("b", { text: `What the model receives: ${count(P.view.length, "message")}` }),
    P.anchor >= 0 ? [" · recovery view from marker ", entryLink(D, P.anchor)] : " · as the host builds it",
    h("div", {
      text: `omitted ${count(o.assistant, "assistant reply", "assistant replies")}, ${count(
        o.toolResult,
        "tool result",
      )}, ${o.other} other · ~${P.tokens.view} of ~${P.tokens.full} tokens`,
    }),
  );
}

function firstUserOf(A: App, b: Branch): number {
  if (b.firstUser != null) return b.firstUser;
  const D = A.D;
  let found = -1;
  for (let c = b.leaf; c >= 0; c = D.parents[c]!) {
    if ((D.flags[c]! & MSG_MASK) === 1) found = c;
    if (c === b.start) break;
  }
  b.firstUser = found >= 0 ? found : b.start;
  return b.firstUser;
}

function treeNode(A: App, b: Branch, level: number): HTMLLIElement {
  const D = A.D;
  const kids = b.children.length;
  const li = h("li", { role: "treeitem", "aria-expanded": kids ? "false" : null });
  const tog = kids
    ? h("button", { cls: "tog", title: "branches that fork off this one", text: "▸" })
    : h("span", { cls: "tog" });
  const stalled = A.S.summaryAt(b.leaf).recovery.stalled;
  const node = h(
    "div",
    { cls: "node", data: { leaf: b.leaf } },
    tog,
    h(
      "div",
      { cls: "l1" },
      b.leaf === D.activeLeaf ? h("span", { cls: "star", title: "active leaf", text: "★" }) : null,
      h("span", { cls: "nid", text: D.ids[b.leaf] }),
      h("span", { cls: "cnt", text: count(b.own, "entry", "entries") + (kids ? ` · ${count(kids, "fork")}` : "") }),
      b.kit ? h("span", { cls: "pill", text: `${b.kit} kit` }) : null,
      b.denials ? h("span", { cls: "pill bad", text: `${b.denials} denied` }) : null,
      stalled ? h("span", { cls: "pill bad", text: "stalled" }) : null,
      D.flags[b.start]! & FLAG.orphan ? h("span", { cls: "pill warn", text: "orphaned" }) : null,
    ),
    h("div", {
      cls: "l2",
      text: (b.fork >= 0 ? `from ${D.ids[b.fork]}: ` : "") + (D.previews[firstUserOf(A, b)] || kindName(D, b.start)),
    }),
  );
  node.style.paddingLeft = `${6 + Math.min(level, 10) * 14}px`;
  li.appendChild(node);
  const n: TreeNode = { li, node, tog, b, level, ul: null, shown: 0, more: null };
  if (kids) {
    tog.addEventListener("click", (ev) => {
      ev.stopPropagation();
      if (n.ul && !n.ul.hidden) closeNode(n);
      else openNode(A, n, 0);
    });
  }
  A.nodes.set(b.leaf, n);
  return li;
}

function openNode(A: App, n: TreeNode, upTo: number): void {
  if (!n.ul) {
    n.ul = h("ul", { role: "group" });
    n.li.appendChild(n.ul);
  }
  const ul = n.ul;
  ul.hidden = false;
  n.tog.textContent = "▾";
  n.li.setAttribute("aria-expanded", "true");
  const total = n.b.children.length;
  const want = Math.min(total, Math.max(n.shown, 100, upTo + 1));
  if (n.more) {
    n.more.remove();
    n.more = null;
  }
  for (let k = n.shown; k < want; k++) ul.appendChild(treeNode(A, n.b.children[k]!, n.level + 1));
  n.shown = want;
  if (want < total) {
    const more = h("button", { cls: "more", text: `show ${Math.min(100, total - want)} more of ${total - want}` });
    more.addEventListener("click", (ev) => {
      ev.stopPropagation();
      openNode(A, n, n.shown + 99);
    });
    ul.appendChild(more);
    n.more = more;
  }
}

function closeNode(n: TreeNode): void {
  if (n.ul) n.ul.hidden = true;
  n.tog.textContent = "▸";
  n.li.setAttribute("aria-expanded", "false");
}

/** Opens nodes breadth first while at most budget nodes are shown, so small trees show every fork at once. */
function openFirstLevels(A: App, budget: number): void {
  const queue = A.B.tops.slice();
  let shown = queue.length;
  while (queue.length > 0) {
    const b = queue.shift()!;
    if (b.children.length === 0) continue;
    if (shown + b.children.length > budget) break;
    openNode(A, A.nodes.get(b.leaf)!, 0);
    shown += b.children.length;
    queue.push(...b.children);
  }
}

/** Opens the tree down to the selected branch and marks it. */
function revealBranch(A: App): void {
  A.selNode?.node.classList.remove("sel");
  const chain: Branch[] = [];
  for (let b = A.B.byLeaf.get(A.leaf); b; b = b.parent >= 0 ? A.B.byLeaf.get(b.parent) : undefined) chain.push(b);
  for (let k = chain.length - 1; k > 0; k--) {
    const n = A.nodes.get(chain[k]!.leaf)!;
    openNode(A, n, chain[k]!.children.indexOf(chain[k - 1]!));
  }
  A.selNode = A.nodes.get(A.leaf) ?? null;
  if (A.selNode) {
    A.selNode.node.classList.add("sel");
    A.selNode.node.scrollIntoView({ block: "nearest" });
  }
}

function selectLeaf(A: App, leaf: number, entry: number): void {
  const D = A.D;
  if (leaf !== A.leaf) {
    A.leaf = leaf;
    A.path = leaf >= 0 ? pathTo(D, leaf) : [];
    A.pos = new Map(A.path.map((e, p) => [e, p]));
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
  const hash = leaf >= 0 ? hashFor({ leafId: D.ids[leaf], entryId: D.ids[A.entry] }) : "";
  if (location.hash !== hash) history.replaceState(null, "", hash || location.pathname);
}

function selectEntry(A: App, e: number): void {
  selectLeaf(A, A.pos.has(e) ? A.leaf : A.B.best[e]!, e);
}

function notice(text: string): void {
  byId("notice").textContent = text;
}

/** The leaf and entry a deep link names; an entry off the named branch selects a branch through it. */
function fromHash(A: App): { leaf: number; entry: number } | null {
  const D = A.D;
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const notes: string[] = [];
  const find = (name: string): number => {
    const id = params.get(name);
    if (id == null) return -1;
    const at = D.idIndex.get(id);
    if (at !== undefined) return at;
    notes.push(`No entry ${id} in this session (${name}).`);
    return -1;
  };
  let leaf = find("leafId");
  const entry = find("entryId");
  if (leaf >= 0 && childCount(D, leaf) > 0) leaf = A.B.best[leaf]!;
  if (entry >= 0 && (leaf < 0 || !pathTo(D, leaf).includes(entry))) {
    if (leaf >= 0) {
      notes.push(`Entry ${D.ids[entry]} is not on the branch to ${D.ids[leaf]}: showing a branch through it.`);
    }
    leaf = A.pos.has(entry) ? A.leaf : A.B.best[entry]!;
  }
  notice(notes.join(" "));
  if (leaf < 0) return null;
  return { leaf, entry: entry >= 0 ? entry : leaf };
}

function showTab(A: App, name: TabName): void {
  A.tab = name;
  for (const t of ["state", "compare", "diagnostics"] as const) {
    byId(`tab-${t}`).hidden = t !== name;
    byId(`tab-btn-${t}`).classList.toggle("on", t === name);
  }
  if (name === "compare") renderCompareTab(A);
}

/** What a click selects: rows, links and buttons that name an entry, a leaf, a filter or a tab. */
const CLICKABLE = "a[data-entry], .row[data-entry], [data-leaf], [data-filter], [data-tab]";

function wire(A: App): void {
  document.addEventListener("click", (ev) => {
    const t = (ev.target as Element | null)?.closest?.<HTMLElement>(CLICKABLE);
    if (!t) return;
    const { filter, tab, entry, leaf } = t.dataset;
    if (filter) return setFilter(A, filter as Filter);
    if (tab) return showTab(A, tab as TabName);
    ev.preventDefault();
    if (entry != null) selectEntry(A, Number(entry));
    else if (leaf != null) selectLeaf(A, Number(leaf), Number(leaf));
  });
  byId<HTMLInputElement>("show-view").addEventListener("change", (ev) =>
    setViewShown(A, (ev.target as HTMLInputElement).checked),
  );
  byId("branch-list").addEventListener("keydown", (ev) => {
    if (ev.key !== "ArrowDown" && ev.key !== "ArrowUp") return;
    ev.preventDefault();
    const r = rowOf(A, A.entry);
    const next = r < 0 ? 0 : r + (ev.key === "ArrowDown" ? 1 : -1);
    if (next >= 0 && next < A.rows.length) selectEntry(A, A.path[A.rows[next]!]!);
  });
  window.addEventListener("hashchange", () => {
    const target = fromHash(A);
    if (target) selectLeaf(A, target.leaf, target.entry);
  });
}

function setFilter(A: App, filter: Filter): void {
  A.filter = filter;
  document.querySelectorAll<HTMLElement>("[data-filter]").forEach((b) => {
    b.classList.toggle("on", b.dataset.filter === filter);
  });
  rebuildRows(A);
  A.branchList.reveal(rowOf(A, A.entry));
}

function setViewShown(A: App, shown: boolean): void {
  byId("view-col").hidden = !shown;
  byId("lists").classList.toggle("two", shown);
  A.viewList.refresh();
  A.branchList.refresh();
}

/** The embedded model: plain JSON, or gzip + base64 for a large session. */
async function readModel(): Promise<SessionPageModel> {
  const el = byId("session-data");
  const text = el.textContent ?? "";
  if (el.dataset.encoding !== "gzip+base64") return JSON.parse(text) as SessionPageModel;
  if (typeof DecompressionStream === "undefined") {
    throw new Error("this browser cannot unpack the compressed session data (no DecompressionStream)");
  }
  const binary = atob(text.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text()) as SessionPageModel;
}

function startReport(M: SessionPageModel, t0: number): void {
  const t1 = performance.now();
  const D = decodeModel(M);
  const A: App = {
    D,
    S: makeStates(D),
    B: makeBranches(D),
    project: makeProjections(D),
    leaf: -2,
    entry: -1,
    filter: "all",
    path: [],
    pos: new Map(),
    rows: [],
    viewRows: [],
    proj: null,
    nodes: new Map(),
    selNode: null,
    tab: "state",
    compare: [-1, -1],
    compareFollows: true,
    branchList: virtualList(byId("branch-list"), ROW, (r) => branchRow(A, r)),
    viewList: virtualList(byId("view-list"), ROW, (r) => viewRow(A, r)),
  };
  const tree = h("ul", { cls: "tree", role: "tree" });
  for (const b of A.B.tops) tree.appendChild(treeNode(A, b, 0));
  fill(byId("tree"), tree);
  openFirstLevels(A, 60);
  wire(A);
  renderDiagnosticsTab(A);
  const start = fromHash(A) ?? { leaf: D.activeLeaf, entry: D.activeLeaf };
  const other = D.leaves.filter((l) => l !== start.leaf);
  A.compare = [
    start.leaf,
    D.activeLeaf !== start.leaf ? D.activeLeaf : other.length ? other[other.length - 1]! : start.leaf,
  ];
  setViewShown(A, byId<HTMLInputElement>("show-view").checked);
  selectLeaf(A, start.leaf, start.entry);
  if (D.n === 0) showTab(A, "diagnostics");
  const t2 = performance.now();
  (window as { reportTiming?: unknown }).reportTiming = {
    dataMs: Math.round(t1 - t0),
    readyMs: Math.round(t2 - t0),
    entries: D.n,
  };
  document.documentElement.dataset.ready = "true";
}

function showFatal(error: unknown): void {
  const box = document.createElement("div");
  box.className = "fatal";
  box.textContent = `This report could not be shown: ${error instanceof Error ? error.message : String(error)}`;
  document.body.prepend(box);
  document.documentElement.dataset.ready = "error";
  console.error(error);
}

const started = performance.now();
readModel()
  .then((M) => startReport(M, started))
  .catch(showFatal);
