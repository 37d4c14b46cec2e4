/** The session page's and the index page's stylesheet (inline: the pages load nothing). */
export const PAGE_CSS = `
:root {
  --bg: #f5f6f8; --panel: #ffffff; --line: #e2e5e9; --text: #1f2328; --muted: #636c76; --faint: #8c959f;
  --accent: #2f6feb; --accent-bg: #ddf4ff; --sel: #fff3c4; --sel-line: #e3b341;
  --user: #0b5cad; --assistant: #57606a; --tool: #1b7c83; --custom: #6e7781; --meta: #8c959f;
  --marker: #8250df; --marker-bg: #f3ecff; --stall: #cf222e; --stall-bg: #ffebe9;
  --report: #1a7f37; --report-bg: #e7f6ec; --incomplete: #bc4c00; --incomplete-bg: #fff1e5;
  --policy: #0969da; --policy-bg: #ecf4ff; --invalid: #9a6700; --invalid-bg: #fff8c5;
  --cjk: "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Source Han Sans SC",
    "WenQuanYi Micro Hei", "Noto Sans CJK JP", "Noto Sans CJK KR";
  --mono: ui-monospace, "SF Mono", "Cascadia Mono", Menlo, Consolas, "DejaVu Sans Mono", "Noto Sans Mono CJK SC",
    var(--cjk), monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --panel: #161b22; --line: #30363d; --text: #e6edf3; --muted: #9198a1; --faint: #6e7681;
    --accent: #4493f8; --accent-bg: #15243a; --sel: #3b2e0a; --sel-line: #bb8009;
    --user: #6cb6ff; --assistant: #adbac7; --tool: #56d4dd; --custom: #9198a1; --meta: #6e7681;
    --marker: #d2a8ff; --marker-bg: #2a1f3d; --stall: #ff7b72; --stall-bg: #3d1a1a; --report: #56d364;
    --report-bg: #12261a; --incomplete: #ffa657; --incomplete-bg: #3a2410; --policy: #79c0ff; --policy-bg: #10243a;
    --invalid: #e3b341; --invalid-bg: #332a0a;
  }
}
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { font: 13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", var(--cjk), sans-serif; color: var(--text);
  background: var(--bg); }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code, .mono { font-family: var(--mono); font-size: 12px; }
button { font: inherit; color: inherit; }
h1 { font-size: 16px; margin: 0; font-weight: 600; overflow-wrap: anywhere; }
h2 { font-size: 12px; margin: 0; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); font-weight: 600; }
h3 { font-size: 13px; margin: 14px 0 6px; font-weight: 600; display: flex; align-items: center; gap: 8px; }
.muted { color: var(--muted); }
.page { display: grid; grid-template-rows: auto auto 1fr; height: 100vh; }
.top { padding: 10px 16px 8px; background: var(--panel); border-bottom: 1px solid var(--line); }
.top .title { display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap; }
.top .meta { color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.chips { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 8px; }
.chip { display: inline-flex; gap: 5px; align-items: baseline; padding: 2px 9px; border-radius: 999px; font-size: 12px;
  border: 1px solid var(--line); background: var(--bg); white-space: nowrap; }
.chip b { font-weight: 600; }
.chip.bad { border-color: var(--stall); color: var(--stall); background: var(--stall-bg); }
.chip.warn { border-color: var(--incomplete); color: var(--incomplete); background: var(--incomplete-bg); }
.chip.good { border-color: var(--report); color: var(--report); background: var(--report-bg); }
.chip.kit { border-color: var(--marker); color: var(--marker); background: var(--marker-bg); }
.toolbar { display: flex; align-items: center; gap: 14px; flex-wrap: wrap; padding: 7px 16px; border-bottom: 1px solid var(--line);
  background: var(--panel); }
.seg { display: inline-flex; border: 1px solid var(--line); border-radius: 6px; overflow: hidden; }
.seg button { border: 0; background: transparent; padding: 3px 10px; cursor: pointer; border-right: 1px solid var(--line); }
.seg button:last-child { border-right: 0; }
.seg button.on { background: var(--accent); color: #fff; }
.toolbar label { display: inline-flex; align-items: center; gap: 6px; cursor: pointer; }
.notice { padding: 6px 16px; background: var(--incomplete-bg); color: var(--incomplete); border-bottom: 1px solid var(--line); }
.notice:empty { display: none; }
.layout { display: grid; grid-template-columns: minmax(220px, 19%) minmax(0, 1fr) minmax(320px, 28%); min-height: 0; }
.pane { min-height: 0; display: flex; flex-direction: column; border-right: 1px solid var(--line); background: var(--panel); }
.pane:last-child { border-right: 0; }
.pane-head { padding: 8px 12px; border-bottom: 1px solid var(--line); display: flex; gap: 8px; align-items: baseline;
  flex-wrap: wrap; }
.pane-body { overflow: auto; min-height: 0; flex: 1; }
.lists { display: grid; grid-template-columns: minmax(0, 1fr); min-height: 0; flex: 1; }
.lists.two { grid-template-columns: minmax(0, 1.15fr) minmax(0, 1fr); }
.col { display: flex; flex-direction: column; min-height: 0; border-right: 1px solid var(--line); }
.col:last-child { border-right: 0; }
.col-head { padding: 6px 10px; font-size: 12px; color: var(--muted); border-bottom: 1px solid var(--line); min-height: 44px; }
.col-head b { color: var(--text); }
.vlist { overflow: auto; position: relative; flex: 1; min-height: 0; outline: none; }
.vspacer { position: relative; }
.vwindow { position: absolute; left: 0; right: 0; top: 0; }
.row { height: 26px; display: flex; align-items: center; gap: 8px; padding: 0 8px 0 4px; white-space: nowrap; cursor: pointer;
  border-left: 3px solid transparent; border-bottom: 1px solid color-mix(in srgb, var(--line) 55%, transparent); }
.row:hover { background: color-mix(in srgb, var(--accent-bg) 60%, transparent); }
.row.sel { background: var(--sel); border-left-color: var(--sel-line); }
.row .gut { width: 30px; flex: none; color: var(--faint); font-size: 11px; text-align: right; }
.row .ln { width: 40px; flex: none; color: var(--faint); font-family: var(--mono); font-size: 11px; text-align: right; }
.row .id { width: 62px; flex: none; color: var(--muted); font-family: var(--mono); font-size: 11px; overflow: hidden; text-overflow: ellipsis; }
.lists.two .row .id { display: none; }
.row .pv { flex: 1; overflow: hidden; text-overflow: ellipsis; min-width: 0; }
.row .st { flex: none; font-size: 11px; padding: 0 6px; border-radius: 4px; }
.kind { flex: none; width: 118px; overflow: hidden; text-overflow: ellipsis; font-size: 11.5px; font-weight: 600; }
.badge { display: inline-block; font-size: 11px; font-weight: 600; padding: 1px 6px; border-radius: 4px; white-space: nowrap; }
.k-user .kind, .badge.k-user { color: var(--user); }
.k-assistant .kind, .badge.k-assistant { color: var(--assistant); }
.k-tool .kind, .badge.k-tool { color: var(--tool); }
.k-custom .kind, .badge.k-custom, .k-other .kind, .badge.k-other { color: var(--custom); }
.k-meta .kind, .badge.k-meta, .k-compaction .kind, .badge.k-compaction { color: var(--meta); }
.k-meta .pv { color: var(--muted); }
.row.k-user .pv { font-weight: 500; }
.row.k-kit { background: var(--marker-bg); }
.k-kit .kind, .badge.k-kit { color: var(--marker); }
.row.k-stall-stop { background: var(--stall-bg); }
.k-stall-stop .kind, .badge.k-stall-stop { color: var(--stall); }
.row.k-completion-report { background: var(--report-bg); }
.k-completion-report .kind, .badge.k-completion-report { color: var(--report); }
.row.k-verification-incomplete { background: var(--incomplete-bg); }
.k-verification-incomplete .kind, .badge.k-verification-incomplete { color: var(--incomplete); }
.row.k-policy-allowed { background: var(--policy-bg); }
.k-policy-allowed .kind, .badge.k-policy-allowed { color: var(--policy); }
.row.k-invalid { background: repeating-linear-gradient(135deg, var(--invalid-bg) 0 8px, transparent 8px 16px); }
.k-invalid .kind, .badge.k-invalid { color: var(--invalid); }
.row.sel.k-kit, .row.sel.k-invalid { background: var(--sel); }
.row.err .kind::after { content: " ✗"; color: var(--stall); }
.row.denial .kind::after { content: " ⛔"; }
.row.loop .gut::after { content: "↻"; color: var(--stall); }
.row.echo .kind::after { content: " (host echo)"; color: var(--muted); }
.row.st-omitted .pv, .row.st-omitted .kind { opacity: .5; text-decoration: line-through; text-decoration-color: var(--faint); }
.row.st-out .pv { opacity: .6; }
.st-omitted .st { background: var(--bg); color: var(--muted); border: 1px solid var(--line); }
.st-out .st { color: var(--faint); }
.st-readded .st { background: var(--accent-bg); color: var(--accent); }
.row.anchor { box-shadow: inset 0 2px 0 var(--marker); }
.tree { list-style: none; margin: 0; padding: 4px 0; }
.tree ul { list-style: none; margin: 0; padding: 0; }
.node { display: grid; grid-template-columns: 18px 1fr; column-gap: 2px; padding: 5px 8px 5px 6px; cursor: pointer;
  border-left: 3px solid transparent; }
.node:hover { background: color-mix(in srgb, var(--accent-bg) 60%, transparent); }
.node.sel { background: var(--sel); border-left-color: var(--sel-line); }
.node .tog { border: 0; background: none; padding: 0; width: 18px; cursor: pointer; color: var(--muted); grid-row: span 2;
  align-self: start; line-height: 18px; }
.node .l1 { display: flex; gap: 6px; align-items: baseline; flex-wrap: wrap; }
.node .l2 { color: var(--muted); font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.node .nid { font-family: var(--mono); font-size: 12px; font-weight: 600; }
.node .cnt { color: var(--muted); font-size: 11.5px; }
.star { color: #d4a72c; }
.more { margin: 4px 0 6px 30px; border: 1px dashed var(--line); background: none; border-radius: 4px; padding: 2px 8px; cursor: pointer; }
.tabs { display: flex; border-bottom: 1px solid var(--line); padding: 0 8px; gap: 2px; }
.tabs button { white-space: nowrap; border: 0; background: none; padding: 8px 10px 7px; cursor: pointer; border-bottom: 2px solid transparent; color: var(--muted); }
.tabs button.on { color: var(--text); border-bottom-color: var(--accent); font-weight: 600; }
.tabs button.alert { color: var(--stall); }
.tab { padding: 4px 14px 16px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; margin-top: 10px; }
.card .head { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.card .pvfull { margin-top: 6px; overflow-wrap: anywhere; }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 3px 12px; margin: 0; }
dl.kv dt { color: var(--muted); }
dl.kv dd { margin: 0; overflow-wrap: anywhere; }
table.grid { border-collapse: collapse; width: 100%; font-size: 12px; }
table.grid th, table.grid td { border-bottom: 1px solid var(--line); padding: 3px 6px; text-align: left; vertical-align: top; }
table.grid th { color: var(--muted); font-weight: 600; white-space: nowrap; }
table.grid td.wrap { overflow-wrap: anywhere; }
table.grid td.field { overflow-wrap: anywhere; min-width: 9.5em; }
table.grid td a.mono { white-space: nowrap; }
table.grid tr.diff td { background: var(--sel); }
table.grid tr.diff td:first-child { box-shadow: inset 3px 0 0 var(--sel-line); }
.pill { font-size: 10.5px; font-weight: 600; padding: 0 6px; border-radius: 999px; background: var(--accent-bg); color: var(--accent); }
.pill.bad { background: var(--stall-bg); color: var(--stall); }
.pill.good { background: var(--report-bg); color: var(--report); }
.pill.warn { background: var(--incomplete-bg); color: var(--incomplete); }
pre.record { max-height: 320px; overflow: auto; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 8px;
  font: 11.5px/1.4 var(--mono); white-space: pre-wrap; overflow-wrap: anywhere; margin: 6px 0 0; }
details > summary { cursor: pointer; color: var(--muted); margin-top: 8px; }
.empty { color: var(--muted); font-style: italic; }
.diag { border: 1px solid var(--line); border-left: 4px solid var(--faint); border-radius: 6px; padding: 8px 10px; margin-top: 8px; }
.diag.error { border-left-color: var(--stall); }
.diag.warning { border-left-color: var(--incomplete); }
.diag .msg { margin-top: 3px; overflow-wrap: anywhere; }
.cmp-controls { display: grid; grid-template-columns: auto 1fr auto; gap: 6px 8px; align-items: center; margin-top: 10px; }
.cmp-controls select { width: 100%; font: inherit; padding: 2px 4px; }
.cmp-controls button, .linkbtn { border: 1px solid var(--line); background: var(--bg); border-radius: 5px; padding: 1px 8px; cursor: pointer; }
.index { max-width: 1600px; margin: 0 auto; padding: 20px; }
.index td.file { overflow-wrap: anywhere; }
.index td.whole { white-space: nowrap; }
.index table.grid { background: var(--panel); font-size: 13px; }
.index td.bad { color: var(--stall); font-weight: 600; }
.index td.warn { color: var(--incomplete); }
.index td.good { color: var(--report); }
.index .charts { display: flex; flex-wrap: wrap; gap: 16px; margin: 12px 0; }
.index .chart { background: var(--panel); border: 1px solid var(--line); margin: 0; padding: 8px; overflow-x: auto; max-width: 100%; }
.index .chart figcaption { font-size: 12px; color: var(--muted); margin-bottom: 4px; }
.index .chart text { fill: var(--text); }
.index th[data-sort] { cursor: pointer; user-select: none; }
.index th[aria-sort="ascending"]::after { content: " ▲"; }
.index th[aria-sort="descending"]::after { content: " ▼"; }
.index td.model { overflow-wrap: anywhere; }
.fatal { margin: 20px; padding: 12px; border: 1px solid var(--stall); background: var(--stall-bg); border-radius: 8px; }
`;
