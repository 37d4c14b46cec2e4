import { depthIn } from "./depth-memo.js";

/**
 * The shape of a tree given by its parent links (null for a root), in file order: children, leaves, forks, depths
 * and where two branches meet. What `SessionTree` answers, and what a fold made while reading answers from the links
 * it took, without the entries.
 */
export class TreeLinks {
  private readonly kids = new Map<string, string[]>();
  private readonly depths = new Map<string, number>();
  private leafIds: string[] | undefined;
  private forkIds: Set<string> | undefined;
  /** The path of the last branch asked to meet, as a set, and the meeting point found for entries off it. */
  private onto: { leaf: string; path: Set<string>; meets: Map<string, string | null> } | null = null;

  constructor(private readonly parents: ReadonlyMap<string, string | null>) {
    for (const [id, parent] of parents) {
      if (parent === null) continue;
      const list = this.kids.get(parent);
      if (list) list.push(id);
      else this.kids.set(parent, [id]);
    }
  }

  get size(): number {
    return this.parents.size;
  }

  /** The last entry in file order: the host's active leaf. */
  get last(): string | null {
    let last: string | null = null;
    for (const id of this.parents.keys()) last = id;
    return last;
  }

  readonly parentOf = (id: string): string | null => this.parents.get(id) ?? null;

  childrenOf(id: string): readonly string[] {
    return this.kids.get(id) ?? [];
  }

  /** Entries without children, in file order (found once: the tree does not change). */
  leaves(): string[] {
    if (this.leafIds === undefined) {
      this.leafIds = [];
      for (const id of this.parents.keys()) if (!this.kids.has(id)) this.leafIds.push(id);
    }
    return [...this.leafIds];
  }

  /** Entries with more than one child: where branches fork. */
  branchPoints(): string[] {
    const out: string[] = [];
    for (const [id, list] of this.kids) if (list.length > 1) out.push(id);
    return out;
  }

  /** The branch points as a set (built once). */
  forks(): ReadonlySet<string> {
    this.forkIds ??= new Set(this.branchPoints());
    return this.forkIds;
  }

  /** Forks are remembered by `depth` too: every branch through one stops there. */
  private readonly isFork = (id: string): boolean => (this.kids.get(id)?.length ?? 0) > 1;

  /** A root is 0. */
  depth(id: string): number {
    return depthIn(id, this.parentOf, this.depths, this.isFork);
  }

  /**
   * The deepest entry on both paths, or null when they share no root. The path of `b` is kept for the next call, and
   * the meeting point of each entry climbed from `a`: the leaves of a tree met with its active branch climb each side
   * branch once.
   */
  commonAncestor(a: string, b: string): string | null {
    if (!this.parents.has(a) || !this.parents.has(b)) return null;
    if (this.onto?.leaf !== b) {
      const path = new Set<string>();
      for (let cursor: string | null = b; cursor !== null; cursor = this.parentOf(cursor)) path.add(cursor);
      this.onto = { leaf: b, path, meets: new Map() };
    }
    const { path, meets } = this.onto;
    const climbed: string[] = [];
    let found: string | null = null;
    for (let cursor: string | null = a; cursor !== null; cursor = this.parentOf(cursor)) {
      if (path.has(cursor)) {
        found = cursor;
        break;
      }
      const known = meets.get(cursor);
      if (known !== undefined) {
        found = known;
        break;
      }
      climbed.push(cursor);
    }
    for (const at of climbed) meets.set(at, found);
    return found;
  }
}
