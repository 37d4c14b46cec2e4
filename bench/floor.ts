import { readFileSync } from "node:fs";

/** The least any reader does with a session file: read it, split it into lines, parse each line. Returns the count. */
export function parseFloor(file: string): number {
  const text = readFileSync(file, "utf8");
  let count = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    if (end > start) {
      JSON.parse(text.slice(start, end));
      count++;
    }
    start = end + 1;
  }
  return count;
}

/** The floor of a folder: every `.jsonl` file below it parsed as above, spread over `workers` threads. */
export async function parseFloorDir(dir: string, workers: number): Promise<number> {
  const { readdirSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { Worker } = await import("node:worker_threads");
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => join(dir, name));
  const shares = Array.from({ length: workers }, (_, w) => files.filter((_, i) => i % workers === w));
  // The same loop as parseFloor, as plain JavaScript for an eval worker.
  const code = `
    const { readFileSync } = require("node:fs");
    const { parentPort, workerData } = require("node:worker_threads");
    let count = 0;
    for (const file of workerData) {
      const text = readFileSync(file, "utf8");
      let start = 0;
      while (start < text.length) {
        let end = text.indexOf("\\n", start);
        if (end < 0) end = text.length;
        if (end > start) { JSON.parse(text.slice(start, end)); count++; }
        start = end + 1;
      }
    }
    parentPort.postMessage(count);`;
  const counts = await Promise.all(
    shares.map(
      (share) =>
        new Promise<number>((resolve, reject) => {
          const worker = new Worker(code, { eval: true, workerData: share });
          worker.once("message", resolve);
          worker.once("error", reject);
        }),
    ),
  );
  return counts.reduce((a, b) => a + b, 0);
}
