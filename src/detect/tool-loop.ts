import type { ToolLoopDetector } from "../../reducers/tool-loop.js";
import {
  callKey,
  failedResult,
  fileStates,
  madeProgress,
  resultKey,
  sameArgs,
  unknownTool,
  waitingPoll,
} from "./tool-loop-keys.js";

/** A NUL in a tool name could make two names meet in one key; no host sends one, but then only keys decide. */
const NUL = "\u0000";

/** The tool-loop detector plugged into the reducer's seam. */
export const toolLoopDetector: ToolLoopDetector = {
  callKey,
  // Same key, told without building keys: another tool name, or other arguments read as data. A result without
  // its call (no arguments) has a key of its own.
  sameCall: (a, b) => {
    if (a === b) return true;
    if (a.tool !== b.tool && !a.tool.includes(NUL) && !b.tool.includes(NUL)) return false;
    if (a.tool !== b.tool || a.args === null || b.args === null) return a.key === b.key;
    return sameArgs(a.args, b.args) ?? a.key === b.key;
  },
  sameResult: (a, b) => a === b || resultKey(a) === resultKey(b),
  failed: failedResult,
  madeProgress,
  fileStates,
  waiting: waitingPoll,
  unknownTool,
};
