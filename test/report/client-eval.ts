import type { StateSummary } from "../../src/fold/state-summary.js";
import { CLIENT_DATA_JS } from "../../src/report/client-data.js";
import type { SessionPageModel } from "../../src/report/page-model.js";

export interface Decoded {
  n: number;
  ids: string[];
  parents: Int32Array;
  lines: Int32Array;
  depth: Int32Array;
  leaves: number[];
  activeLeaf: number;
}

export interface Branch {
  leaf: number;
  start: number;
  fork: number;
  parent: number;
  children: Branch[];
  own: number;
  kit: number;
}

export interface Projection {
  path: number[];
  host: number[];
  view: number[];
  status: Int8Array;
  omitted: { assistant: number; toolResult: number; other: number };
  anchor: number;
  anchorIndex: number;
}

export interface ClientData {
  decodeModel(model: SessionPageModel): Decoded;
  pathTo(d: Decoded, i: number): number[];
  makeStates(d: Decoded): {
    tupleAt(i: number): number;
    summaryAt(i: number): StateSummary;
    changedAt(i: number): string[];
  };
  makeBranches(d: Decoded): { best: Int32Array; byLeaf: Map<number, Branch>; tops: Branch[] };
  makeProjections(d: Decoded): (leaf: number) => Projection | null;
  decodeRuns(runs: number[]): number[];
}

/** The client script's data functions, evaluated in Node exactly as the page embeds them. */
export function clientData(): ClientData {
  const source = `${CLIENT_DATA_JS}\nreturn { decodeModel, pathTo, makeStates, makeBranches, makeProjections, decodeRuns };`;
  return new Function(source)() as ClientData;
}
