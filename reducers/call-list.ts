import type { CallList, ToolCallRecord } from "./state.js";

/** The latest `count` calls of the list, oldest first. */
export function latestCalls(list: CallList | null, count: number): ToolCallRecord[] {
  const calls = new Array<ToolCallRecord>(count);
  let cell = list;
  for (let i = count - 1; i >= 0; i--, cell = (cell as CallList).earlier) calls[i] = (cell as CallList).call;
  return calls;
}

/**
 * The list with one more call, sharing the cells before it. A list that has reached twice `keep` cells starts again
 * from copies of its latest `keep - 1`, so a state holds at most that many cells and a call costs about two.
 */
export function withLatest(list: CallList | null, call: ToolCallRecord, keep: number): CallList {
  let earlier = list;
  if (earlier !== null && earlier.length >= 2 * keep) {
    earlier = null;
    for (const c of latestCalls(list, keep - 1)) earlier = cell(c, earlier);
  }
  return cell(call, earlier);
}

function cell(call: ToolCallRecord, earlier: CallList | null): CallList {
  return { call, earlier, length: earlier === null ? 1 : earlier.length + 1 };
}
