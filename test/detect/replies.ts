import { classifyReply, detectStall, type RunEvent } from "../../src/detect/index.js";
import { advanceRunByRules, EMPTY_RUN } from "../../src/detect/promise-run.js";
import { scoreRun } from "../../src/detect/run-model.js";

/** Test helpers: text-only replies, each after a user nudge, run through the stall detector and the classifier. */
let seq = 0;

export const reply = (text: string): RunEvent => ({
  type: "assistant",
  entryId: `t${++seq}`,
  text,
  toolCalls: 0,
  stopReason: "stop",
});

export const USER: RunEvent = { type: "user" };

/** English status recaps closing on the next step, which the rules read as deliverables. */
export const ENGLISH_RECAPS = [
  "### Findings\n\n- Jest resolves `date-fns/esm/index.js`\n- 83 of 91 suites pass\n\nNext on my list: `npx jest src/components/Invoice`.",
  "## Where things stand\n\n- Jest resolves `date-fns/esm/index.js`\n- 8 suites still fail\n\n**Next:** `npx jest src/components/Invoice`",
  "### Status\n\n- Jest resolves `date-fns/esm/index.js` now\n- 83 of 91 suites pass\n\nNext on my list: `npx jest src/components/Invoice`.",
];

/** Whether these replies, each after a user message, end in a stall. */
export const stalled = (...texts: string[]) => detectStall(texts.flatMap((t) => [USER, reply(t)])).stalled;

export const kind = (text: string) => classifyReply(text).kind;

export const action = (text: string) => classifyReply(text).intents[0]?.action;

/** The same, by the hand-written rules alone (no learned scorer). */
export const stalledByRules = (...texts: string[]) =>
  texts.flatMap((t) => [USER, reply(t)]).reduce(advanceRunByRules, EMPTY_RUN).stalled;

/** The learned scorer's best three of these replies taken as one window. */
export const runScore = (...texts: string[]) =>
  scoreRun(texts.map((text) => ({ text, cls: classifyReply(text) }))).score;
