/**
 * Client script, part 2: DOM helpers and a virtual list. Session text only ever reaches the page through
 * `textContent` and attribute values, never as markup.
 */
export const CLIENT_UI_BASE_JS = `
function append(el, child) {
  if (child == null || child === false) return;
  if (Array.isArray(child)) { for (var i = 0; i < child.length; i++) append(el, child[i]); return; }
  el.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
}

function h(tag, props) {
  var el = document.createElement(tag);
  if (props) {
    for (var key in props) {
      var value = props[key];
      if (value == null || value === false) continue;
      if (key === "text") el.textContent = String(value);
      else if (key === "cls") el.className = value;
      else if (key === "data") { for (var d in value) el.dataset[d] = String(value[d]); }
      else if (key === "on") { for (var ev in value) el.addEventListener(ev, value[ev]); }
      else el.setAttribute(key, String(value));
    }
  }
  for (var i = 2; i < arguments.length; i++) append(el, arguments[i]);
  return el;
}

/** Replaces an element's children; arrays (nested too) are flattened, strings become text. */
function fill(el) {
  el.replaceChildren();
  for (var i = 1; i < arguments.length; i++) append(el, arguments[i]);
  return el;
}

function byId(id) { return document.getElementById(id); }

function kitSlug(name) { return name.replace(/^kit: /, "").toLowerCase().replace(/[^a-z]+/g, "-").replace(/-$/, ""); }

/** CSS classes for an entry's role or type. */
function kindClass(D, i) {
  var f = D.flags[i];
  if (f & F_KIT) return "k-kit k-" + kitSlug(kindName(D, i));
  if (f & F_KIT_INVALID) return "k-invalid";
  if (f & F_COMPACTION) return "k-compaction";
  switch (f & MSG_MASK) {
    case 1: return "k-user";
    case 2: return "k-assistant";
    case 3: return "k-tool";
    case 4: case 5: return "k-custom";
    case 6: return "k-other";
    default: return "k-meta";
  }
}

function hashFor(params) {
  var p = new URLSearchParams();
  for (var k in params) if (params[k] != null) p.set(k, params[k]);
  return "#" + p.toString();
}

function entryLink(D, i, text) {
  if (i == null || i < 0) return h("span", { cls: "muted", text: text || "-" });
  return h("a", { href: hashFor({ entryId: D.ids[i] }), cls: "mono", data: { entry: i }, title: "line " + D.lines[i] },
    text || D.ids[i]);
}

function leafLink(D, leaf, text) {
  return h("a", { href: hashFor({ leafId: D.ids[leaf] }), cls: "mono", data: { leaf: leaf } }, text || D.ids[leaf]);
}

function count(n, one, many) { return n + " " + (n === 1 ? one : many || one + "s"); }

/** Renders only the rows in view (plus a margin), so a branch of 100k entries scrolls like a short one. */
function VirtualList(host, rowHeight, renderRow) {
  var spacer = h("div", { cls: "vspacer" }), win = h("div", { cls: "vwindow" });
  spacer.appendChild(win);
  host.appendChild(spacer);
  var total = 0, first = -1, last = -1, frame = 0;
  function paint(force) {
    var top = host.scrollTop, height = host.clientHeight || 800;
    var a = Math.max(0, Math.floor(top / rowHeight) - 8);
    var b = Math.min(total, Math.ceil((top + height) / rowHeight) + 8);
    if (!force && a === first && b === last) return;
    first = a; last = b;
    win.style.transform = "translateY(" + a * rowHeight + "px)";
    var rows = [];
    for (var i = a; i < b; i++) rows.push(renderRow(i));
    win.replaceChildren.apply(win, rows);
  }
  host.addEventListener("scroll", function () {
    if (!frame) frame = requestAnimationFrame(function () { frame = 0; paint(false); });
  });
  window.addEventListener("resize", function () { paint(true); });
  return {
    setCount: function (n) { total = n; spacer.style.height = n * rowHeight + "px"; paint(true); },
    refresh: function () { paint(true); },
    reveal: function (i) {
      if (i < 0) return;
      var y = i * rowHeight, view = host.clientHeight || 800;
      if (y < host.scrollTop || y + rowHeight > host.scrollTop + view) host.scrollTop = Math.max(0, y - view / 3);
      paint(true);
    }
  };
}
`;
