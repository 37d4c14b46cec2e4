import type { FileOrder } from "./file-order.js";

/** No parent: a root (or a parent not yet added, while it waits in `pending`). */
const ROOT = -1;
const UNKNOWN_DEPTH = -1;

/**
 * The shape of a tree given by its parent links (null for a root), in file order: children, leaves, forks, depths
 * and where two branches meet. Links are taken one at a time as they are read (`add`), so that a reader has the shape
 * when it reaches the end without a second pass over the entries: each entry gets a place in file order, and its
 * parent's place, its depth and its count of children are kept by place. A parent added after its child (a file not
 * written in order) is linked when the shape is first asked for.
 */
export class TreeLinks {
  private readonly placeOf: Map<string, number>;
  private readonly ids: string[] = [];
  private readonly parentAt: number[] = [];
  private readonly depthAt: number[] = [];
  private readonly childCount: number[] = [];
  /** Places whose parent had not been added yet, with the parent's id. */
  private readonly pending = new Map<number, string>();
  private kids: Map<string, string[]> | undefined;
  private leafIds: string[] | undefined;
  private forkIds: Set<string> | undefined;
  /** The places on the path of the last branch asked to meet, and the meeting point found for places off it. */
  private onto: { leaf: number; path: Set<number>; meets: Map<number, number> } | null = null;
  private parentsFirst = true;

  /** The links of `parents`, in its order. */
  constructor(parents?: ReadonlyMap<string, string | null>, placeOf = new Map<string, number>()) {
    this.placeOf = placeOf;
    if (parents) for (const [id, parent] of parents) this.add(id, parent);
  }

  /**
   * Links for entries numbered already: `placeOf` gives each id the place in file order it will be added at (kept as
   * this object's own, not copied). Asked before every entry is added, the shape knows only those added.
   */
  static numbered(placeOf: Map<string, number>): TreeLinks {
    return new TreeLinks(undefined, placeOf);
  }

  /** Takes the next entry in file order; false (and nothing taken) when its id was taken before. */
  add(id: string, parent: string | null): boolean {
    const place = this.ids.length;
    const given = this.placeOf.get(id);
    if (given === undefined) this.placeOf.set(id, place);
    else if (given !== place) return false;
    this.ids.push(id);
    this.childCount.push(0);
    const parentPlace = parent === null ? ROOT : this.placeOf.get(parent);
    // A parent not yet added: unknown, or numbered at this place or after.
    if (parentPlace === undefined || parentPlace >= place) {
      this.pending.set(place, parent as string);
      this.parentAt.push(ROOT);
      this.depthAt.push(UNKNOWN_DEPTH);
    } else {
      this.parentAt.push(parentPlace);
      if (parentPlace === ROOT) this.depthAt.push(0);
      else {
        this.childCount[parentPlace] = (this.childCount[parentPlace] as number) + 1;
        const above = this.depthAt[parentPlace] as number;
        this.depthAt.push(above === UNKNOWN_DEPTH ? UNKNOWN_DEPTH : above + 1);
      }
    }
    this.kids = undefined;
    this.leafIds = undefined;
    this.forkIds = undefined;
    this.onto = null;
    return true;
  }

  get size(): number {
    return this.ids.length;
  }

  /** The last entry in file order: the host's active leaf. */
  get last(): string | null {
    return this.ids.at(-1) ?? null;
  }

  /** The place of `id` in file order; undefined when it was not added. */
  place(id: string): number | undefined {
    const place = this.placeOf.get(id);
    return place !== undefined && place < this.ids.length ? place : undefined;
  }

  has(id: string): boolean {
    return this.place(id) !== undefined;
  }

  /** Every entry's id, in file order. */
  keys(): IterableIterator<string> {
    return this.ids.values();
  }

  readonly parentOf = (id: string): string | null => {
    const place = this.place(id);
    if (place === undefined) return null;
    this.settle();
    const parent = this.parentAt[place] as number;
    return parent === ROOT ? null : (this.ids[parent] as string);
  };

  childrenOf(id: string): readonly string[] {
    if (this.kids === undefined) {
      this.settle();
      const kids = new Map<string, string[]>();
      for (let place = 0; place < this.ids.length; place++) {
        const parent = this.parentAt[place] as number;
        if (parent === ROOT) continue;
        const parentId = this.ids[parent] as string;
        const list = kids.get(parentId);
        if (list) list.push(this.ids[place] as string);
        else kids.set(parentId, [this.ids[place] as string]);
      }
      this.kids = kids;
    }
    return this.kids.get(id) ?? [];
  }

  /** Entries without children, in file order (found once until another entry is added). */
  leaves(): string[] {
    if (this.leafIds === undefined) {
      this.settle();
      this.leafIds = this.ids.filter((_, place) => this.childCount[place] === 0);
    }
    return [...this.leafIds];
  }

  /** Entries with more than one child: where branches fork, in the order their first children stand. */
  branchPoints(): string[] {
    this.settle();
    const out: string[] = [];
    const seen = new Set<number>();
    for (const parent of this.parentAt) {
      if (parent === ROOT || (this.childCount[parent] as number) < 2 || seen.has(parent)) continue;
      seen.add(parent);
      out.push(this.ids[parent] as string);
    }
    return out;
  }

  /** The branch points as a set (built once). */
  forks(): ReadonlySet<string> {
    this.forkIds ??= new Set(this.branchPoints());
    return this.forkIds;
  }

  /** The entries by their place in file order, with their parents' places and their counts of children. */
  places(): Omit<FileOrder, "entries"> {
    this.settle();
    return {
      ids: this.ids,
      parents: this.parentAt,
      children: this.childCount,
      depths: this.depthAt,
      parentsFirst: this.parentsFirst,
      indexOf: this.placeOf,
    };
  }

  /** A root is 0. */
  depth(id: string): number {
    const place = this.place(id);
    if (place === undefined) return 0;
    this.settle();
    return this.depthAt[place] as number;
  }

  /**
   * The deepest entry on both paths, or null when they share no root. The path of `b` is kept for the next call, and
   * the meeting point of each entry climbed from `a`: the leaves of a tree met with its active branch climb each side
   * branch once.
   */
  commonAncestor(a: string, b: string): string | null {
    const from = this.place(a);
    const to = this.place(b);
    if (from === undefined || to === undefined) return null;
    this.settle();
    if (this.onto?.leaf !== to) {
      const path = new Set<number>();
      for (let cursor = to; cursor !== ROOT; cursor = this.parentAt[cursor] as number) path.add(cursor);
      this.onto = { leaf: to, path, meets: new Map() };
    }
    const { path, meets } = this.onto;
    const climbed: number[] = [];
    let found = ROOT;
    for (let cursor = from; cursor !== ROOT; cursor = this.parentAt[cursor] as number) {
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
    return found === ROOT ? null : (this.ids[found] as string);
  }

  /** Links the parents added after their children, and gives every entry below one its depth. */
  private settle(): void {
    if (this.pending.size === 0) return;
    for (const [place, parentId] of this.pending) {
      const parent = this.placeOf.get(parentId);
      if (parent === undefined) {
        this.depthAt[place] = 0;
        continue;
      }
      this.parentAt[place] = parent;
      this.parentsFirst = false;
      this.childCount[parent] = (this.childCount[parent] as number) + 1;
    }
    this.pending.clear();
    const climbed: number[] = [];
    for (let place = 0; place < this.ids.length; place++) {
      let cursor = place;
      while (this.depthAt[cursor] === UNKNOWN_DEPTH) {
        climbed.push(cursor);
        if (climbed.length > this.ids.length) throw new Error(`parent links of ${this.ids[place]} form a cycle`);
        const parent = this.parentAt[cursor] as number;
        if (parent === ROOT) break;
        cursor = parent;
      }
      let depth = this.depthAt[cursor] === UNKNOWN_DEPTH ? -1 : (this.depthAt[cursor] as number);
      for (let i = climbed.length - 1; i >= 0; i--) this.depthAt[climbed[i] as number] = ++depth;
      climbed.length = 0;
    }
  }
}
