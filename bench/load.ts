import { inspectSession } from "../src/cli/commands/inspect.js";
import { loadSession } from "../src/session.js";
import { type HostApi, hostLoad, hostParse } from "./host.js";
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
  /** The host's read, parse and migrate alone (no context built): the same work as the kit's side. */
  hostParseMs: number;
  /** kitMs / hostMs. */
  ratio: number;
  /** kitMs / hostParseMs. */
  parseRatio: number;
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
  hostParse(host, file);
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
  const parseTimes: number[] = [];
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
    collectGarbage();
    parseTimes.push(timed(() => hostParse(host, input.file)).ms);
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
  const hostParseMs = median(parseTimes);
  return {
    name: input.name,
    source: input.source,
    entries,
    bytes: input.bytes,
    kitMs,
    hostMs,
    hostParseMs,
    ratio: ratio(kitMs, hostMs),
    parseRatio: ratio(kitMs, hostParseMs),
    reps,
  };
}
