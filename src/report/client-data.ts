/**
 * Client script, part 1: decodes the embedded page model into typed arrays and indexes (children, depths, the state
 * at any entry, the tree of branches). Plain ES2020 with no template literals, so it can live in a string; tests
 * evaluate it with `new Function` and compare it with the server-side fold.
 */
export const CLIENT_DATA_JS = `
var MSG_MASK = 7, F_KIT = 8, F_KIT_INVALID = 16, F_ERROR = 32, F_DENIAL = 64, F_ORPHAN = 128, F_COMPACTION = 256;
var SLICES = ["request", "session", "denials", "fileIssues", "verification", "recovery"];

function decodeModel(M) {
  var E = M.entries, n = E.ids.length, i;
  var parents = Int32Array.from(E.parents);
  var lines = new Int32Array(n), line = 0;
  for (i = 0; i < n; i++) { line += E.lineDeltas[i]; lines[i] = line; }
  var idIndex = new Map();
  for (i = 0; i < n; i++) idIndex.set(E.ids[i], i);
  var childStart = new Int32Array(n + 1);
  for (i = 0; i < n; i++) if (parents[i] >= 0) childStart[parents[i] + 1]++;
  for (i = 0; i < n; i++) childStart[i + 1] += childStart[i];
  var fill = childStart.slice(0, n), childList = new Int32Array(childStart[n]);
  var roots = [];
  for (i = 0; i < n; i++) {
    if (parents[i] >= 0) childList[fill[parents[i]]++] = i;
    else roots.push(i);
  }
  var order = new Int32Array(n), depth = new Int32Array(n), head = 0, tail = 0;
  for (i = 0; i < roots.length; i++) order[tail++] = roots[i];
  while (head < tail) {
    var at = order[head++];
    for (var k = childStart[at]; k < childStart[at + 1]; k++) {
      var child = childList[k];
      depth[child] = depth[at] + 1;
      order[tail++] = child;
    }
  }
  function mapOf(pairs) { var m = new Map(); for (var j = 0; j < pairs.length; j++) m.set(pairs[j][0], pairs[j][1]); return m; }
  return {
    M: M, n: n, ids: E.ids, parents: parents, lines: lines, flags: E.flags, kinds: E.kinds, kindNames: M.kindNames,
    previews: E.previews, idIndex: idIndex, childStart: childStart, childList: childList, roots: roots,
    order: order, depth: depth, labels: mapOf(M.labels), firstKept: mapOf(M.compactions),
    owners: mapOf(M.callOwners), details: mapOf(M.details), activeLeaf: M.activeLeaf, leaves: M.leaves
  };
}

function childCount(D, i) { return D.childStart[i + 1] - D.childStart[i]; }

function pathTo(D, i) {
  var path = [];
  for (var c = i; c >= 0; c = D.parents[c]) path.push(c);
  return path.reverse();
}

function kindName(D, i) { return D.kindNames[D.kinds[i]]; }

/** The state summary at any entry: the nearest recorded change at or above it, memoised on the way down. */
function makeStates(D) {
  var S = D.M.states, at = new Int32Array(D.n), known = new Uint8Array(D.n), k;
  for (k = 0; k < S.changes.length; k += 2) { at[S.changes[k]] = S.changes[k + 1]; known[S.changes[k]] = 1; }
  function tupleAt(i) {
    if (i < 0) return 0;
    if (known[i]) return at[i];
    var chain = [], c = i;
    while (c >= 0 && !known[c]) { chain.push(c); c = D.parents[c]; }
    var t = c >= 0 ? at[c] : 0;
    for (var j = 0; j < chain.length; j++) { at[chain[j]] = t; known[chain[j]] = 1; }
    return t;
  }
  function slice(t, s) { return S.tuples[t * SLICES.length + s]; }
  function summaryOf(t) {
    var out = {};
    for (var s = 0; s < SLICES.length; s++) out[SLICES[s]] = S.slices[SLICES[s]][slice(t, s)];
    return out;
  }
  return {
    tupleAt: tupleAt,
    summaryAt: function (i) { return summaryOf(tupleAt(i)); },
    /** Slice names whose value differs from the parent's state. */
    changedAt: function (i) {
      var t = tupleAt(i), p = tupleAt(D.parents[i]), out = [];
      for (var s = 0; s < SLICES.length; s++) if (slice(t, s) !== slice(p, s)) out.push(SLICES[s]);
      return out;
    }
  };
}

function decodeRuns(runs) {
  var out = [], value = 0;
  for (var i = 0; i < runs.length; i += 2) for (var k = 0; k < runs[i + 1]; k++) { value += runs[i]; out.push(value); }
  return out;
}

/** Path status codes: why an entry of the branch is or is not in the model view. */
var ST_NONE = 0, ST_SENT = 1, ST_OMITTED = 2, ST_NOT_IN_CONTEXT = 3, ST_READDED = 4;

/** The embedded projection of a leaf (null when the page left it out), with a status for each branch entry. */
function makeProjections(D) {
  var byLeaf = new Map(), list = D.M.projections.leaves;
  for (var k = 0; k < list.length; k++) byLeaf.set(list[k].leaf, list[k]);
  return function (leaf) {
    var p = byLeaf.get(leaf);
    if (!p) return null;
    var path = pathTo(D, leaf), host = decodeRuns(p.host), view = decodeRuns(p.view);
    var inHost = new Set(host), inView = new Set(view), status = new Int8Array(path.length);
    for (var i = 0; i < path.length; i++) {
      var e = path[i];
      if (inView.has(e)) status[i] = inHost.has(e) ? ST_SENT : ST_READDED;
      else if (inHost.has(e)) status[i] = ST_OMITTED;
      else if (D.flags[e] & (MSG_MASK | F_COMPACTION)) status[i] = ST_NOT_IN_CONTEXT;
      else status[i] = ST_NONE;
    }
    return {
      leaf: leaf, path: path, host: host, view: view, status: status, omitted: p.omitted, anchor: p.anchor,
      anchorIndex: p.anchorIndex, tokens: p.tokens
    };
  };
}

/**
 * The tree of branches: one branch per leaf. At a fork the child leading to the active leaf (else to the latest
 * leaf in the file) continues the branch; the other children start branches nested under it.
 */
function makeBranches(D) {
  var n = D.n, best = new Int32Array(n).fill(-1), rank = new Float64Array(n).fill(-1), i, k;
  for (k = n - 1; k >= 0; k--) {
    i = D.order[k];
    if (childCount(D, i) === 0) { best[i] = i; rank[i] = i === D.activeLeaf ? Infinity : i; }
    var p = D.parents[i];
    if (p >= 0 && rank[i] > rank[p]) { rank[p] = rank[i]; best[p] = best[i]; }
  }
  var byLeaf = new Map();
  function branch(leaf) {
    var b = byLeaf.get(leaf);
    if (!b) {
      b = { leaf: leaf, start: -1, fork: -1, parent: -1, children: [], own: 0, kit: 0, users: 0, denials: 0, errors: 0 };
      byLeaf.set(leaf, b);
    }
    return b;
  }
  for (k = 0; k < D.leaves.length; k++) branch(D.leaves[k]);
  var tops = [];
  for (k = 0; k < n; k++) {
    i = D.order[k];
    var b = branch(best[i]), par = D.parents[i], f = D.flags[i];
    b.own++;
    if (f & (F_KIT | F_KIT_INVALID)) b.kit++;
    if ((f & MSG_MASK) === 1) b.users++;
    if (f & F_DENIAL) b.denials++;
    if (f & F_ERROR) b.errors++;
    if (par < 0) { b.start = i; tops.push(b); }
    else if (best[par] !== best[i]) {
      b.start = i; b.fork = par; b.parent = best[par];
      branch(best[par]).children.push(b);
    }
  }
  return { best: best, byLeaf: byLeaf, tops: tops };
}
`;
