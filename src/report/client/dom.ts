/**
 * DOM helpers and a virtual list. Session text only ever reaches the page through `textContent` and attribute
 * values, never as markup.
 */
import { type Decoded, FLAG, kindName, MSG_MASK } from "./data.js";

export type Child = Node | string | number | null | undefined | false | Child[];

export interface Props {
  text?: string | number | null | undefined;
  cls?: string | undefined;
  data?: Record<string, string | number>;
  on?: Partial<Record<keyof HTMLElementEventMap, (event: Event) => void>>;
  [attribute: string]: unknown;
}

function append(el: Node, child: Child): void {
  if (child == null || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child) append(el, c);
    return;
  }
  el.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value == null || value === false) continue;
    if (key === "text") el.textContent = String(value);
    else if (key === "cls") el.className = String(value);
    else if (key === "data") {
      for (const [name, v] of Object.entries(value as Record<string, unknown>)) el.dataset[name] = String(v);
    } else if (key === "on") {
      for (const [event, handler] of Object.entries(value as Record<string, EventListener>)) {
        el.addEventListener(event, handler);
      }
    } else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

/** Replaces an element's children; arrays (nested too) are flattened, strings become text. */
export function fill<E extends Element>(el: E, ...children: Child[]): E {
  el.replaceChildren();
  append(el, children);
  return el;
}

export function byId<E extends HTMLElement = HTMLElement>(id: string): E {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as E;
}

function kitSlug(name: string): string {
  return name
    .replace(/^kit: /, "")
    .toLowerCase()
    .replace(/[^a-z]+/g, "-")
    .replace(/-$/, "");
}

/** CSS classes for an entry's role or type. */
export function kindClass(D: Decoded, i: number): string {
  const f = D.flags[i]!;
  if (f & FLAG.kit) return `k-kit k-${kitSlug(kindName(D, i))}`;
  if (f & FLAG.kitInvalid) return "k-invalid";
  if (f & FLAG.compaction) return "k-compaction";
  switch (f & MSG_MASK) {
    case 1:
      return "k-user";
    case 2:
      return "k-assistant";
    case 3:
      return "k-tool";
    case 4:
    case 5:
      return "k-custom";
    case 6:
      return "k-other";
    default:
      return "k-meta";
  }
}

export function hashFor(params: Record<string, string | undefined>): string {
  const p = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value != null) p.set(key, value);
  return `#${p.toString()}`;
}

export function entryLink(D: Decoded, i: number, text?: string): HTMLElement {
  if (i < 0) return h("span", { cls: "muted", text: text || "-" });
  return h(
    "a",
    { href: hashFor({ entryId: D.ids[i] }), cls: "mono", data: { entry: i }, title: `line ${D.lines[i]}` },
    text || D.ids[i],
  );
}

export function leafLink(D: Decoded, leaf: number, text?: string): HTMLElement {
  return h("a", { href: hashFor({ leafId: D.ids[leaf] }), cls: "mono", data: { leaf } }, text || D.ids[leaf]);
}

export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export interface VirtualList {
  setCount(n: number): void;
  refresh(): void;
  reveal(i: number): void;
}

/** Renders only the rows in view (plus a margin), so a branch of 100k entries scrolls like a short one. */
export function virtualList(host: HTMLElement, rowHeight: number, renderRow: (i: number) => HTMLElement): VirtualList {
  const spacer = h("div", { cls: "vspacer" });
  const win = h("div", { cls: "vwindow" });
  spacer.appendChild(win);
  host.appendChild(spacer);
  let total = 0;
  let first = -1;
  let last = -1;
  let frame = 0;
  const paint = (force: boolean) => {
    const top = host.scrollTop;
    const height = host.clientHeight || 800;
    const a = Math.max(0, Math.floor(top / rowHeight) - 8);
    const b = Math.min(total, Math.ceil((top + height) / rowHeight) + 8);
    if (!force && a === first && b === last) return;
    first = a;
    last = b;
    win.style.transform = `translateY(${a * rowHeight}px)`;
    const rows: HTMLElement[] = [];
    for (let i = a; i < b; i++) rows.push(renderRow(i));
    win.replaceChildren(...rows);
  };
  host.addEventListener("scroll", () => {
    if (!frame) {
      frame = requestAnimationFrame(() => {
        frame = 0;
        paint(false);
      });
    }
  });
  window.addEventListener("resize", () => paint(true));
  return {
    setCount(n) {
      total = n;
      spacer.style.height = `${n * rowHeight}px`;
      paint(true);
    },
    refresh: () => paint(true),
    reveal(i) {
      if (i < 0) return;
      const y = i * rowHeight;
      const view = host.clientHeight || 800;
      if (y < host.scrollTop || y + rowHeight > host.scrollTop + view) host.scrollTop = Math.max(0, y - view / 3);
      paint(true);
    },
  };
}
