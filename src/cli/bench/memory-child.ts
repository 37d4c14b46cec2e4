/**
 * One side of the memory benchmark, alone in its own process: `kit FILE` runs the kit's `inspect --json` on the
 * file, `host FILE` the host's own load of it. Prints one JSON line with the peak resident set size at the end.
 */
const [side, file] = process.argv.slice(2);
if ((side !== "kit" && side !== "host") || file === undefined) {
  process.stderr.write("usage: memory-child kit|host FILE\n");
  process.exit(2);
}

let work: () => unknown;
if (side === "kit") {
  const { runCli } = await import("../run.js");
  work = async () => {
    const out = await runCli(["inspect", file, "--json"], { cwd: process.cwd() });
    if (out.exitCode !== 0) throw new Error(`inspect exited ${out.exitCode}: ${out.stderr}`);
    return out.stdout.length;
  };
} else {
  const { loadHost, hostLoad } = await import("./host.js");
  const host = await loadHost();
  work = () => hostLoad(host, file).entries.length;
}

const baselineRss = process.memoryUsage().rss;
const result = await work();
const usage = process.resourceUsage();
process.stdout.write(
  `${JSON.stringify({ side, result, baselineRssBytes: baselineRss, maxRssBytes: usage.maxRSS * 1024 })}\n`,
);
