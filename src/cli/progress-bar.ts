import { createRequire } from "node:module";

/** Loaded only for a terminal. */
const require = createRequire(import.meta.url);

/** A progress bar on stderr when it is a terminal (cli-progress); nothing otherwise. */
export function progressBar(label: string): { update: (done: number, total: number) => void; stop: () => void } {
  if (!process.stderr.isTTY) return { update: () => {}, stop: () => {} };
  const cliProgress = require("cli-progress") as typeof import("cli-progress");
  const bar = new cliProgress.SingleBar(
    { format: `${label} {bar} {value}/{total} files  {eta_formatted} left`, stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update: (done, total) => {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.update(done);
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
