import { produce } from "immer";
import type { KitEvent } from "./contract/events.js";
import { type FileTouchDetails, fileIssueOf } from "./contract/tool-details.js";
import { exhaustive } from "./session.js";
import type { FileIssueRecord } from "./state.js";

export type FileIssuesSlice = Record<string, FileIssueRecord>;

export function initialFileIssues(): FileIssuesSlice {
  return {};
}

function touchedPath(details: unknown): string | null {
  if (typeof details !== "object" || details === null) return null;
  const path = (details as Partial<FileTouchDetails>).path;
  return typeof path === "string" ? path : null;
}

/**
 * Per-file read problems of the current request; a later successful result on the same file (a corrected read, a
 * change) clears one.
 */
export const fileIssuesReducer = (state: FileIssuesSlice, event: KitEvent): FileIssuesSlice => {
  switch (event.kind) {
    case "toolResult": {
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
    }
    case "user":
      return Object.keys(state).length === 0 ? state : {};
    case "assistant":
    case "kit":
    case "hostMessage":
    case "modelChange":
    case "thinkingChange":
    case "nestedCall":
    case "other":
      return state;
    default:
      return exhaustive(event);
  }
};
