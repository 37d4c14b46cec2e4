import type { KitState } from "../../reducers/state.js";
import { BranchFold, type EntrySource } from "../fold/branch-fold.js";
import { kitReducer } from "../fold/kit-reducer.js";
import type { SessionEntry } from "../log/entry-types.js";

/** The part of the host's read-only session manager the kit uses. */
export interface SessionView {
  getEntry(id: string): unknown;
  getLeafId(): string | null;
  getSessionFile(): string | undefined;
  getSessionId(): string;
  getBranch(): unknown[];
}

/**
 * The fold of the live session: memoised by entry id for the whole process, so every request folds only what was
 * appended since. A different session (switch, new, fork) gets a fresh memo.
 */
export class LiveState {
  private fold: BranchFold | null = null;
  private sessionKey = "";

  forSession(session: SessionView): BranchFold {
    const key = `${session.getSessionId()}\u0000${session.getSessionFile() ?? ""}`;
    if (!this.fold || key !== this.sessionKey) {
      const source: EntrySource = {
        get: (id) => session.getEntry(id) as SessionEntry | undefined,
        parentOf: (id) => (session.getEntry(id) as SessionEntry | undefined)?.parentId ?? null,
      };
      this.fold = new BranchFold(source, kitReducer);
      this.sessionKey = key;
    }
    return this.fold;
  }

  /** State at the session's current leaf (the in-memory leaf: `/tree` moves it without writing). */
  atLeaf(session: SessionView): KitState {
    return this.forSession(session).stateAt(session.getLeafId());
  }
}
