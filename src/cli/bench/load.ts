import { loadSession } from "../../session.js";
import { inspectSession } from "../commands/inspect.js";
import { type HostApi, hostLoad } from "./host.js";
import { collectGarbage, median, ratio, timed } from "./stats.js";

export interface LoadRow {
  name: string;
  source: "synthetic" | "real";
  entries: number;
  bytes: number;
  /** Median milliseconds of the kit's `inspect` work: reader with schema checks, tree, loss report, summary. */
  kitMs: number;
  /** Median milliseconds of the host's read, `parseSessionEntries`, `migrateSessionEntries`, `buildSessionContext`. */
  hostMs: number;
  /** kitMs / hostMs. */
  ratio: number;
  reps: number;
}

/** The kit's side of a load: exactly what `inspect` computes for one file, minus printing. */
export function kitLoad(file: string) {
  return inspectSession(file, loadSession(file));
}

/** One untimed load of each side: compiled code and schema validators, as in a process that has read a file. */
export function warmUpLoad(host: HostApi, file: string): void {
  kitLoad(file);
  hostLoad(host, file);
  collectGarbage();
}

/**
 * Times the kit's and the host's load of the same file, alternating which goes first and collecting garbage
 * before each, so that neither pays for the other's heap.
 */
export function measureLoad(
  host: HostApi,
  input: { name: string; source: LoadRow["source"]; file: string; bytes: number },
  reps: number,
): LoadRow {
  const kit: number[] = [];
  const hostTimes: number[] = [];
  let entries = 0;
  const runKit = () => {
    collectGarbage();
    const { ms, value } = timed(() => kitLoad(input.file));
    entries = value.entries;
    kit.push(ms);
  };
  const runHost = () => {
    collectGarbage();
    hostTimes.push(timed(() => hostLoad(host, input.file)).ms);
  };
  for (let i = 0; i < reps; i++) {
    if (i % 2 === 0) {
      runKit();
      runHost();
    } else {
      runHost();
      runKit();
    }
  }
  collectGarbage();
  const kitMs = median(kit);
  const hostMs = median(hostTimes);
  return {
    name: input.name,
    source: input.source,
    entries,
    bytes: input.bytes,
    kitMs,
    hostMs,
    ratio: ratio(kitMs, hostMs),
    reps,
  };
}
