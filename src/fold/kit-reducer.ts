import type { StallDetector } from "../../reducers/recovery.js";
import { createRootReducer, type RootReducer } from "../../reducers/root.js";
import { advanceRun, EMPTY_RUN } from "../detect/promise-run.js";
import { classifyReply } from "../detect/reply-classifier.js";
import { toolLoopDetector } from "../detect/tool-loop.js";

export const stallDetector: StallDetector = {
  emptyRun: EMPTY_RUN,
  advanceRun,
  isPromiseReply: (text) => classifyReply(text).kind === "promise",
};

/** The kit's root reducer with the real stall detector plugged into its seam. */
export const kitReducer: RootReducer = createRootReducer(stallDetector, toolLoopDetector);
