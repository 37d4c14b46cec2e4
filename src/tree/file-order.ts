import type { SessionEntry } from "../log/entry-types.js";

/**
 * A tree's entries by their place in file order: each id once, where it first stands (a repeated id holds its later
 * record, as the host's index does), with its parent's place and how many children it has.
 */
export interface FileOrder {
  ids: readonly string[];
  entries: readonly SessionEntry[];
  /** The place of each entry's parent; -1 for a root. */
  parents: readonly number[];
  children: readonly number[];
  /** Each entry's depth (a root is 0). */
  depths: readonly number[];
  /** Every parent stands before its children (as the host writes a file). */
  parentsFirst: boolean;
  indexOf: ReadonlyMap<string, number>;
}
