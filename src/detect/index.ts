export {
  advanceRun,
  detectStall,
  EMPTY_RUN,
  type PromiseRun,
  type RunEvent,
  type RunReply,
  readsAsPromise,
  STALL_RUN_LENGTH,
  STALL_WINDOW,
  type StallVerdict,
  UNCOUNTED_STOP_REASONS,
} from "./promise-run.js";
export { classifyReply, type Intent, isPromiseReply, type ReplyClass, type ReplyKind } from "./reply-classifier.js";
export { isSimilarReply, replySimilarity, SIMILARITY_THRESHOLD } from "./similarity.js";
export { toolLoopDetector } from "./tool-loop.js";
export { callKey, canonicalArgs, failedResult, madeProgress, resultKey, stripVolatile } from "./tool-loop-keys.js";
