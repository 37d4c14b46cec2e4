/** An entry's parent, its depth and the messages on its branch up to it: what an appended tail continues from. */
export type LinkTuple = [parentId: string | null, depth: number, messages: number];

/** Every entry's links, in file order. */
export type Links = Map<string, LinkTuple>;

/**
 * The links as the memo stores them: the ids in file order, each parent as a distance back in that order (0 for
 * none), and depths and message counts as steps from the entry before, which on a branch written in order are 1 and
 * 0 or 1. About half the bytes of one object keyed by id.
 */
export interface PackedLinks {
  ids: string[];
  up: number[];
  depth: number[];
  messages: number[];
}

export function packLinks(links: Links): PackedLinks {
  const at = new Map<string, number>();
  for (const id of links.keys()) at.set(id, at.size);
  const parents: number[] = [];
  const depths: number[] = [];
  const messages: number[] = [];
  for (const [parent, depth, count] of links.values()) {
    parents.push(parent === null ? -1 : (at.get(parent) ?? -1));
    depths.push(depth);
    messages.push(count);
  }
  return packPlaces([...links.keys()], parents, depths, messages);
}

/**
 * The links of entries given by their places in file order: each parent's place (-1 for none), each depth and the
 * messages on each branch up to it.
 */
export function packPlaces(
  ids: readonly string[],
  parents: readonly number[],
  depths: readonly number[],
  messages: readonly number[],
): PackedLinks {
  const packed: PackedLinks = { ids: [...ids], up: [], depth: [], messages: [] };
  let depth = 0;
  let count = 0;
  for (let place = 0; place < ids.length; place++) {
    const parent = parents[place] as number;
    packed.up.push(parent < 0 ? 0 : place - parent);
    packed.depth.push((depths[place] as number) - depth);
    packed.messages.push((messages[place] as number) - count);
    depth = depths[place] as number;
    count = messages[place] as number;
  }
  return packed;
}

export function unpackLinks({ ids, up, depth, messages }: PackedLinks): Links {
  const links: Links = new Map();
  let d = 0;
  let m = 0;
  for (let i = 0; i < ids.length; i++) {
    d += depth[i] as number;
    m += messages[i] as number;
    const back = up[i] as number;
    links.set(ids[i] as string, [back === 0 ? null : (ids[i - back] as string), d, m]);
  }
  return links;
}
