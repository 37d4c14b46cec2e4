import type { Branches, Decoded, Projection, States } from "./data.js";
import type { VirtualList } from "./dom.js";

export type Filter = "all" | "user" | "kit";
export type TabName = "state" | "compare" | "diagnostics";

export interface TreeNode {
  li: HTMLLIElement;
  node: HTMLDivElement;
  tog: HTMLElement;
  b: Branches["tops"][number];
  level: number;
  ul: HTMLUListElement | null;
  shown: number;
  more: HTMLButtonElement | null;
}

/** The page's state: the decoded model, what is selected and how the lists show it. */
export interface App {
  D: Decoded;
  S: States;
  B: Branches;
  project: (leaf: number) => Projection | null;
  leaf: number;
  entry: number;
  filter: Filter;
  /** Entries of the selected branch, root first, and each one's position in it. */
  path: number[];
  pos: Map<number, number>;
  /** Positions in `path` (branch list) and in the view (model view list) that pass the filter. */
  rows: number[];
  viewRows: number[];
  proj: Projection | null;
  nodes: Map<number, TreeNode>;
  selNode: TreeNode | null;
  tab: TabName;
  compare: [number, number];
  compareFollows: boolean;
  branchList: VirtualList;
  viewList: VirtualList;
}
