/**
 * One measured process of the benchmark: `floor FILE` reads the file, splits its lines and parses each (what any
 * reader must do); `host FILE` is the host's own load; `kit ARGS...` runs the CLI with those arguments and writes its
 * output to stdout (the benchmark discards it); `floor-dir DIR` is the floor of every session in a folder on all cores. Prints one JSON line on stderr at the end: RSS after the imports,
 * peak RSS, and the milliseconds of the work itself.
 */
import { writeSync } from "node:fs";

const [side, ...rest] = process.argv.slice(2);
const started = performance.now();
let work: () => Promise<unknown>;
if (side === "floor" && rest[0] !== undefined) {
  const { parseFloor } = await import("./floor.js");
  const file = rest[0];
  work = async () => parseFloor(file);
} else if (side === "floor-dir" && rest[0] !== undefined) {
  const { parseFloorDir } = await import("./floor.js");
  const { availableParallelism } = await import("node:os");
  const dir = rest[0];
  work = () => parseFloorDir(dir, availableParallelism());
} else if (side === "host" && rest[0] !== undefined) {
  const { loadHost, hostLoad } = await import("./host.js");
  const host = await loadHost();
  const file = rest[0];
  work = async () => hostLoad(host, file).entries.length;
} else if (side === "kit") {
  const { runCli } = await import("../src/cli/run.js");
  work = async () => {
    const out = await runCli(rest, { cwd: process.cwd(), stdout: (chunk) => writeSync(1, chunk) });
    if (out.exitCode > 1) throw new Error(`${rest.join(" ")} exited ${out.exitCode}: ${out.stderr}`);
    if (out.stdout) writeSync(1, out.stdout);
    return out.stdout.length;
  };
} else {
  process.stderr.write("usage: process-child floor FILE | host FILE | kit ARGS...\n");
  process.exit(2);
}

const importMs = performance.now() - started;
const baselineRssBytes = process.memoryUsage().rss;
const t = performance.now();
const result = await work();
const workMs = performance.now() - t;
const maxRssBytes = process.resourceUsage().maxRSS * 1024;
process.stderr.write(`\n${JSON.stringify({ side, result, importMs, workMs, baselineRssBytes, maxRssBytes })}\n`);
