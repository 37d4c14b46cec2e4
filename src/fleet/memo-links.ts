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
  const packed: PackedLinks = { ids: [], up: [], depth: [], messages: [] };
  let depth = 0;
  let messages = 0;
  for (const [id, [parent, d, m]] of links) {
    const p = parent === null ? undefined : at.get(parent);
    packed.up.push(p === undefined ? 0 : packed.ids.length - p);
    packed.ids.push(id);
    packed.depth.push(d - depth);
    packed.messages.push(m - messages);
    depth = d;
    messages = m;
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
