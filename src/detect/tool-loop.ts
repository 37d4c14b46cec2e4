import type { ToolLoopDetector } from "../../reducers/tool-loop.js";
import { callKey, failedResult, madeProgress, resultKey } from "./tool-loop-keys.js";

/** The tool-loop detector plugged into the reducer's seam. */
export const toolLoopDetector: ToolLoopDetector = {
  callKey,
  sameResult: (a, b) => a === b || resultKey(a) === resultKey(b),
  failed: failedResult,
  madeProgress,
};
