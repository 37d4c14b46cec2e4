import { type Diagnostic, diagnostic } from "../log/diagnostics.js";
import type { SessionEntry } from "../log/entry-types.js";
import type { RecordPosition, SessionLog } from "../log/read-session.js";
import type { FileOrder } from "./file-order.js";
import { TreeLinks } from "./tree-links.js";

/**
 * The entry tree of one session file, by the host's rules: ids are unique (a later duplicate wins, as in the host's
 * index), a missing parent makes an extra root, the active leaf is the last entry in file order. Parent cycles, on
 * which the host would hang, are cut at the member that comes first in the file and reported.
 */
export class SessionTree {
  readonly entries: readonly SessionEntry[];
  readonly byId = new Map<string, SessionEntry>();
  readonly activeLeafId: string | null;
  readonly roots: string[] = [];
  readonly orphans: string[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly labels = new Map<string, string>();
  /** Each id's place in file order (where it first stands), and the position of its record (the later one). */
  private readonly indexOf = new Map<string, number>();
  private readonly positions: RecordPosition[] = [];
  /** Children, leaves, forks, depths: the shape of the links once cycles are cut. */
  readonly links: TreeLinks;
  /** The entries by their place in file order, with their parents' places. */
  readonly order: FileOrder;

  constructor(entries: readonly SessionEntry[], positions: readonly RecordPosition[] = []) {
    this.entries = entries;
    const where = (i: number) => positions[i] ?? { line: 0, byteOffset: 0 };
    // A cycle needs a parent link that points to a later line; a file written in order has none. Such a link is one
    // whose parent was not yet read when its child was (unless an id repeats, which moves the positions).
    let repeated = false;
    const notYetRead: string[] = [];
    entries.forEach((entry, i) => {
      const known = this.indexOf.get(entry.id);
      if (known !== undefined) {
        repeated = true;
        const line = (this.positions[known] as RecordPosition).line;
        const message = `id ${entry.id} was already used at line ${line}: the host keeps only this later record`;
        this.diagnostics.push(diagnostic("E_DUPLICATE_ID", where(i), message, entry.id));
      } else {
        this.indexOf.set(entry.id, this.positions.length);
      }
      const parentId = entry.parentId;
      if (parentId !== null && parentId !== undefined && parentId !== entry.id && !this.byId.has(parentId)) {
        notYetRead.push(parentId);
      }
      this.byId.set(entry.id, entry);
      this.positions[known ?? this.positions.length] = where(i);
      if (entry.type === "label") {
        if (entry.label) this.labels.set(entry.targetId, entry.label);
        else this.labels.delete(entry.targetId);
      }
    });
    this.activeLeafId = entries.length > 0 ? (entries[entries.length - 1] as SessionEntry).id : null;
    // A file written in order is linked as its entries are taken; one that may loop once its loops are cut.
    const links = TreeLinks.numbered(this.indexOf);
    const parents = repeated || notYetRead.some((id) => this.byId.has(id)) ? new Map<string, string | null>() : null;
    const link = (id: string, parent: string | null) => (parents ? parents.set(id, parent) : links.add(id, parent));
    for (const [id, entry] of this.byId) {
      const parentId = entry.parentId;
      if (parentId === null || parentId === undefined || parentId === id) {
        link(id, null);
        this.roots.push(id);
        if (parentId === id) {
          // The host's tree view shows it as a root, but its path walk (getBranch, buildSessionContext) never ends.
          const message = `entry ${id} is its own parent: the host would hang building this branch; read as a root`;
          this.diagnostics.push(diagnostic("E_CYCLE", this.position(id)!, message, id));
        }
      } else if (!this.byId.has(parentId)) {
        link(id, null);
        this.roots.push(id);
        this.orphans.push(id);
        const message = `parent ${parentId} is not in the file: this entry and its descendants form a separate tree`;
        this.diagnostics.push(diagnostic("E_MISSING_PARENT", this.position(id)!, message, id));
      } else {
        link(id, parentId);
      }
    }
    if (parents) {
      this.cutCycles(parents);
      for (const [id, parent] of parents) links.add(id, parent);
    }
    this.links = links;
    this.order = { ...links.places(), entries: [...this.byId.values()] };
  }

  static fromLog(log: SessionLog): SessionTree {
    return new SessionTree(log.entries, log.positions);
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): SessionEntry | undefined {
    return this.byId.get(id);
  }

  /** The position of the record at `place` in file order (see `order`). */
  positionAt(place: number): RecordPosition | undefined {
    return this.positions[place];
  }

  position(id: string): RecordPosition | undefined {
    const at = this.indexOf.get(id);
    return at === undefined ? undefined : this.positions[at];
  }

  parentOf(id: string): string | null {
    return this.links.parentOf(id);
  }

  childrenOf(id: string): readonly string[] {
    return this.links.childrenOf(id);
  }

  /** Entries without children, in file order. */
  leaves(): string[] {
    return this.links.leaves();
  }

  /** The branch points as a set (built once). */
  forks(): ReadonlySet<string> {
    return this.links.forks();
  }

  /** Entries with more than one child: where branches fork. */
  branchPoints(): string[] {
    return this.links.branchPoints();
  }

  depth(id: string): number {
    return this.links.depth(id);
  }

  /** The entries from `id` up its path, nearest first, until one whose id `known` has (left out: `stop`). */
  pathUp(id: string, known: ReadonlyMap<string, unknown>): { entries: SessionEntry[]; stop: string | null } {
    const { ids, entries, parents, indexOf } = this.order;
    const out: SessionEntry[] = [];
    for (let at = indexOf.get(id) ?? -1; at >= 0; at = parents[at] as number) {
      const entryId = ids[at] as string;
      if (known.has(entryId)) return { entries: out, stop: entryId };
      out.push(entries[at] as SessionEntry);
    }
    return { entries: out, stop: null };
  }

  /** Root to `id`, inclusive. */
  pathTo(id: string): SessionEntry[] {
    const { entries, parents, indexOf } = this.order;
    const path: SessionEntry[] = [];
    for (let at = indexOf.get(id) ?? -1; at >= 0; at = parents[at] as number) path.push(entries[at] as SessionEntry);
    return path.reverse();
  }

  /** The deepest entry on both paths, or null when they share no root. */
  commonAncestor(a: string, b: string): string | null {
    return this.links.commonAncestor(a, b);
  }

  /** Cuts each loop of `parents` at the member that comes first in the file. */
  private cutCycles(parents: Map<string, string | null>): void {
    const state = new Map<string, 1 | 2>();
    for (const start of this.byId.keys()) {
      if (state.has(start)) continue;
      const walk: string[] = [];
      let cursor: string | null = start;
      while (cursor !== null && !state.has(cursor)) {
        state.set(cursor, 1);
        walk.push(cursor);
        cursor = parents.get(cursor) ?? null;
      }
      if (cursor !== null && state.get(cursor) === 1) {
        const loop = walk.slice(walk.indexOf(cursor));
        const first = loop.reduce((a, b) => (this.position(a)!.line <= this.position(b)!.line ? a : b));
        parents.set(first, null);
        this.roots.push(first);
        const message = `parent links loop through ${loop.join(" -> ")}: the host would hang building this branch; cut here`;
        this.diagnostics.push(diagnostic("E_CYCLE", this.position(first)!, message, first));
      }
      for (const id of walk) state.set(id, 2);
    }
  }
}
