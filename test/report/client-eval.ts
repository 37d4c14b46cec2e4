import {
  decodeModel,
  decodeRuns,
  makeBranches,
  makeProjections,
  makeStates,
  pathTo,
} from "../../src/report/client/data.js";

/** The report client's data functions: the same module the page's bundle is built from. */
export function clientData() {
  return { decodeModel, pathTo, makeStates, makeBranches, makeProjections, decodeRuns };
}
