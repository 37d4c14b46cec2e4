import { plural } from "../src/text.js";
import { formatFleetRows } from "./fleet.js";
import type { BenchDocument } from "./run.js";
import { formatBytes, formatMs } from "./stats.js";
import { missed } from "./targets.js";

function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number)))
      .join("  ")
      .trimEnd(),
  );
}

function fmtRatio(x: number): string {
  if (!Number.isFinite(x)) return "-";
  return x < 0.01 ? x.toExponential(1) : x.toFixed(x < 1 ? 3 : 2);
}

function verdict(doc: BenchDocument, name: string): string {
  const t = doc.targets.find((x) => x.name === name);
  if (!t) return "";
  return `≤ ${t.max}  ${t.applicable ? (t.met ? "met" : "MISSED") : "n/a (quick: full-size inputs only)"}`;
}

/** The human table of a benchmark run. */
export function formatBench(doc: BenchDocument): string {
  const m = doc.machine;
  const out: string[] = [
    `context-kit bench${doc.quick ? " --quick" : ""}: ${m.cpus} × ${m.cpuModel}, ${formatBytes(m.totalMemoryBytes)} RAM, Node ${m.node}, host ${doc.host.package}@${doc.host.version}`,
    `Medians over the repetitions shown; ratio = kit / host or kit / floor (below 1: the kit is faster or smaller). Load average ${m.loadAverage.start.toFixed(1)} at the start, ${m.loadAverage.end.toFixed(1)} at the end.${m.droppedEnv.length ? ` Timed processes run without ${m.droppedEnv.join(", ")} (read at every Node start; no timed command uses it).` : ""}`,
    "",
    ...formatCommands(doc),
    ...formatFolder(doc),
    "Fleet index (targets: both sides whole context-kit processes, start-up and DuckDB included; the in-process row is context)",
    formatFleetRows(doc.fleet),
    "",
    "Load in one process, warm (kit: reader + schema checks + tree + inspect summary, no message context built; host: read + parseSessionEntries + migrateSessionEntries + buildSessionContext of the active leaf; host parse: the same without buildSessionContext, the work the kit's side does)",
  ];
  const loadRows = [["file", "entries", "size", "kit", "host", "ratio", "target", "host parse", "kit/parse", "reps"]];
  const synthetic = doc.load.filter((r) => r.source === "synthetic");
  const real = doc.load.filter((r) => r.source === "real");
  const loadRow = (label: string, r: (typeof doc.load)[number]) => [
    label,
    String(r.entries),
    formatBytes(r.bytes),
    formatMs(r.kitMs),
    formatMs(r.hostMs),
    fmtRatio(r.ratio),
    verdict(doc, `load.${r.name}`),
    formatMs(r.hostParseMs),
    fmtRatio(r.parseRatio),
    String(r.reps),
  ];
  for (const r of synthetic) loadRows.push(loadRow(`synthetic ${r.name}`, r));
  for (const r of real) {
    loadRows.push(loadRow(`real ${r.name.length > 44 ? `${r.name.slice(0, 20)}…${r.name.slice(-23)}` : r.name}`, r));
  }
  if (real.length > 0) {
    const kit = real.reduce((s, r) => s + r.kitMs, 0);
    const host = real.reduce((s, r) => s + r.hostMs, 0);
    const bytes = real.reduce((s, r) => s + r.bytes, 0);
    const entries = real.reduce((s, r) => s + r.entries, 0);
    const parse = real.reduce((s, r) => s + r.hostParseMs, 0);
    loadRows.push([
      `real, all ${real.length} files`,
      String(entries),
      formatBytes(bytes),
      formatMs(kit),
      formatMs(host),
      fmtRatio(kit / host),
      "",
      formatMs(parse),
      fmtRatio(kit / parse),
      "",
    ]);
  }
  out.push(...table(loadRows).map((l) => `  ${l}`), "");

  const r = doc.replay;
  out.push(
    `Replay of a ${r.leaves}-leaf tree (${r.entries} entries): the memoised fold of every branch vs buildSessionContext once per leaf`,
    ...table([
      ["", "kit", "host", "ratio", "speed-up", "target", "reps"],
      [
        `buildSessionContext(entries, leaf)`,
        formatMs(r.kitMs),
        formatMs(r.hostMs),
        fmtRatio(r.ratio),
        `${(1 / r.ratio).toFixed(2)}×`,
        verdict(doc, "replay"),
        String(r.reps),
      ],
      [
        `… with the id index passed in`,
        formatMs(r.kitMs),
        formatMs(r.hostIndexedMs),
        fmtRatio(r.ratioIndexed),
        `${(1 / r.ratioIndexed).toFixed(2)}×`,
        "",
        String(r.reps),
      ],
    ]).map((l) => `  ${l}`),
    `  the kit reduced ${r.kitReductions} entries once each; the host walked ${r.hostEntriesWalked} entries`,
    "",
    "Per request (the kit's `context` hook after one appended entry; host: the structuredClone of the branch's messages)",
  );
  const reqRows = [
    [
      "branch",
      "messages",
      "fold med",
      "fold p99",
      "fold⚓ med",
      "pass med",
      "pass p99",
      "view med",
      "view p99",
      "digest med",
      "host clone",
      "view/clone",
      "target",
    ],
  ];
  for (const p of doc.perRequest) {
    reqRows.push([
      p.name,
      String(p.messages),
      formatMs(p.fold.medianMs),
      formatMs(p.fold.p99Ms),
      formatMs(p.foldAnchored.medianMs),
      formatMs(p.passThrough.medianMs),
      formatMs(p.passThrough.p99Ms),
      formatMs(p.recoveryView.medianMs),
      formatMs(p.recoveryView.p99Ms),
      formatMs(p.digest.medianMs),
      formatMs(p.hostClone.medianMs),
      fmtRatio(p.rewriteRatio),
      verdict(doc, `perRequest.${p.name}.rewrite`),
    ]);
  }
  out.push(...table(reqRows).map((l) => `  ${l}`));
  const g = doc.foldGrowth;
  out.push(
    `  fold median at ${g.to} / at ${g.from}: ${fmtRatio(g.ratio)}  (${verdict(doc, "foldGrowth")}); on the anchored branch (fold⚓): ${fmtRatio(g.anchoredRatio)}; the whole hook (pass): ${fmtRatio(g.hookRatio)}  (${verdict(doc, "hookGrowth")})`,
    `  digest work per request, messages hashed / chain links (pass; view): ${doc.perRequest.map((p) => `${p.name} ${p.digestWork.pass.messagesHashed.toFixed(2)}/${p.digestWork.pass.links.toFixed(2)}; ${p.digestWork.view.messagesHashed.toFixed(2)}/${p.digestWork.view.links.toFixed(2)}`).join(", ")}`,
    `  reducer calls per request: ${doc.perRequest.map((p) => p.reductionsPerRequest.toFixed(2)).join(", ")}; requests timed (pass/view, at most ${doc.perRequest[0]?.requests ?? 0}, fewer when a case ran out of time): ${doc.perRequest.map((p) => `${p.name} ${p.passThrough.samples}/${p.recoveryView.samples}`).join(", ")}`,
    "  pass = the whole hook when no projection applies (returns without touching the messages); view = the whole hook",
    "  on an anchored branch (fold, find the marker, recovery view); both include recording the request digest, and",
    "  digest = that part alone on the anchored branch; fold⚓ = the fold alone there, right after the previous",
    "  request's recovery view of the whole branch",
    "",
  );

  out.push(...formatFileTools(doc));
  const judged = doc.targets.filter((t) => t.applicable);
  const failed = judged.filter(missed);
  const na = doc.targets.length - judged.length;
  const notJudged = na > 0 ? `; ${plural(na, "full-size target")} not applicable to --quick` : "";
  out.push(
    failed.length === 0
      ? `All ${judged.length} applicable targets met${notJudged} (${doc.seconds.toFixed(0)} s).`
      : `${judged.length - failed.length} of ${judged.length} applicable targets met${notJudged}; missed: ${failed.map((t) => `${t.name} (${fmtRatio(t.value)} > ${t.max})`).join(", ")} (${doc.seconds.toFixed(0)} s).`,
  );
  return out.join("\n");
}

function formatCommands(doc: BenchDocument): string[] {
  const c = doc.commands;
  const rows = [
    ["", "wall", "× floor", "target", "peak RSS", "after imports", "peak − imports", "× host", "target"],
    [
      "parse floor (read, split, JSON.parse)",
      formatMs(c.floor.wallMs),
      "1",
      "",
      formatBytes(c.floor.maxRssBytes),
      formatBytes(c.floor.baselineRssBytes),
      formatBytes(c.floor.maxRssBytes - c.floor.baselineRssBytes),
      "",
      "",
    ],
    [
      "host load (parse, migrate, context)",
      formatMs(c.host.wallMs),
      fmtRatio(c.host.floorRatio),
      "",
      formatBytes(c.host.maxRssBytes),
      formatBytes(c.host.baselineRssBytes),
      formatBytes(c.host.maxRssBytes - c.host.baselineRssBytes),
      "1",
      "",
    ],
  ];
  for (const r of c.rows) {
    rows.push([
      `context-kit ${r.name}`,
      formatMs(r.wallMs),
      fmtRatio(r.floorRatio),
      verdict(doc, `command.${r.name}`),
      formatBytes(r.maxRssBytes),
      formatBytes(r.baselineRssBytes),
      formatBytes(r.maxRssBytes - r.baselineRssBytes),
      fmtRatio(r.netMemoryRatio),
      verdict(doc, `memory.${r.name}`),
    ]);
  }
  return [
    `Commands on the ${c.name} file (${formatBytes(c.bytes)}), each a whole process (node start-up included), ${plural(c.reps, "round")} in rotating order`,
    ...table(rows).map((l) => `  ${l}`),
    "  × floor = wall / the floor's wall; × host = (peak − after imports) / the host load's; raw peaks are shown beside",
    "",
  ];
}

function formatFolder(doc: BenchDocument): string[] {
  const f = doc.folder;
  const rows = [["", "wall", "files/s", "MB/s", "× floor"]];
  for (const r of [f.floor, ...f.rows]) {
    rows.push([
      r === f.floor ? `parse floor on ${f.cores} threads` : `context-kit ${r.name.replace(" --json", " DIR --json")}`,
      formatMs(r.wallMs),
      r.filesPerSecond.toFixed(0),
      r.megabytesPerSecond.toFixed(1),
      fmtRatio(r.floorRatio),
    ]);
  }
  return [
    `Folders: ${f.files} sessions (${f.distinct} distinct, ${formatBytes(f.bytes)}, ${f.entries} entries), whole processes, ${plural(f.cores, "core")}, ${plural(f.reps, "round")}`,
    ...table(rows).map((l) => `  ${l}`),
    "",
  ];
}

function formatFileTools(doc: BenchDocument): string[] {
  const t = doc.fileTools;
  const rows = [["tool", "call", "kit", "host", "ratio", "built-in", "reps"]];
  for (const r of t.rows) {
    rows.push([
      r.tool,
      r.call.length > 60 ? `${r.call.slice(0, 59)}…` : r.call,
      formatMs(r.kitMs),
      r.hostMs === null ? "-" : formatMs(r.hostMs),
      r.ratio === null ? "-" : fmtRatio(r.ratio),
      r.builtInMs === null ? "" : formatMs(r.builtInMs),
      String(r.reps),
    ]);
  }
  for (const tool of ["grep", "find", "ls"] as const) {
    const total = t.totals[tool];
    rows.push([
      tool,
      "all calls above, summed",
      formatMs(total.kitMs),
      total.hostMs === null ? "-" : formatMs(total.hostMs),
      total.ratio === null ? "-" : fmtRatio(total.ratio),
      verdict(doc, `tools.${tool}`),
      "",
    ]);
  }
  return [
    `File tools on a tree of ${t.files} files in ${t.dirs} folders: the guarded tools (grep through ${t.ripgrep ?? "no rg: the built-in search"}) vs the host's own`,
    ...table(rows).map((l) => `  ${l}`),
    "  built-in = the guarded grep without rg, one run",
    ...t.hostProblems.map((p) => `  not measured: ${p}`),
    "",
  ];
}
