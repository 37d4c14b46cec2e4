import { produce } from "immer";
import { type FileTouchDetails, fileIssueOf } from "./contract/tool-details.js";
import type { Slice } from "./slice.js";
import type { FileIssueRecord } from "./state.js";

export type FileIssuesSlice = Record<string, FileIssueRecord>;

function touchedPath(details: unknown): string | null {
  if (typeof details !== "object" || details === null) return null;
  const path = (details as Partial<FileTouchDetails>).path;
  return typeof path === "string" ? path : null;
}

/**
 * Per-file read problems of the current request; a later successful result on the same file (a corrected read, a
 * change) clears one.
 */
export const fileIssuesSlice: Slice<FileIssuesSlice> = {
  initial: () => ({}),
  on: {
    toolResult(state, event) {
      const issue = fileIssueOf(event.details);
      if (issue) {
        return produce(state, (d) => {
          d[issue.path] = { path: issue.path, code: issue.code, entryId: event.entryId };
        });
      }
      const path = event.isError ? null : touchedPath(event.details);
      if (path === null || !(path in state)) return state;
      return produce(state, (d) => {
        delete d[path];
      });
    },
    user: (state) => (Object.keys(state).length === 0 ? state : {}),
  },
};
