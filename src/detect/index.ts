export {
  advanceRun,
  detectStall,
  EMPTY_RUN,
  type PromiseRun,
  type RunEvent,
  type RunReply,
  STALL_RUN_LENGTH,
  STALL_WINDOW,
  type StallVerdict,
  UNCOUNTED_STOP_REASONS,
} from "./promise-run.js";
export { classifyReply, type Intent, isPromiseReply, type ReplyClass, type ReplyKind } from "./reply-classifier.js";
export { isSimilarReply, replySimilarity, SIMILARITY_THRESHOLD } from "./similarity.js";
