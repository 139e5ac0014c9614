// Reference answers computed from the relation files alone, with plain BFS over the compact graph: what every
// database's answer is checked against.
import { outNeighbors } from './graph.js';

function searchSide(size) {
  return {
    mark: new Int32Array(size),
    depth: new Int32Array(size),
    frontier: new Int32Array(size),
    next: new Int32Array(size),
    size: 0,
    level: 0,
  };
}

// Visit marks and frontiers, allocated once per graph: a call bumps the stamp instead of clearing the marks.
const scratchByGraph = new WeakMap();

function scratch(g) {
  let s = scratchByGraph.get(g);
  if (!s) {
    s = { stamp: 0, forward: searchSide(g.n + 1), backward: searchSide(g.n + 1) };
    scratchByGraph.set(g, s);
  }
  s.stamp += 1;
  return s;
}

export function neighbors(g, id) {
  return Array.from(outNeighbors(g, id));
}

export function neighbors2(g, id) {
  const { forward: { mark }, stamp } = scratch(g);
  mark[id] = stamp;
  const found = [];
  for (const a of outNeighbors(g, id)) {
    if (mark[a] !== stamp) { mark[a] = stamp; found.push(a); }
    for (const b of outNeighbors(g, a)) {
      if (mark[b] !== stamp) { mark[b] = stamp; found.push(b); }
    }
  }
  return found.sort((x, y) => x - y);
}

function startSide(side, id, stamp) {
  side.mark[id] = stamp;
  side.depth[id] = 0;
  side.frontier[0] = id;
  side.size = 1;
  side.level = 0;
}

// Grows one side of the search by a level. Returns the length of the path through the first node that the
// other side has already visited, or -1 when the sides have not met.
function expand(side, offsets, targets, other, stamp) {
  const { frontier, next, mark, depth } = side;
  const level = side.level + 1;
  let size = 0;
  for (let i = 0; i < side.size; i += 1) {
    const u = frontier[i];
    for (let e = offsets[u], end = offsets[u + 1]; e < end; e += 1) {
      const w = targets[e];
      if (mark[w] === stamp) continue;
      if (other.mark[w] === stamp) return level + other.depth[w];
      mark[w] = stamp;
      depth[w] = level;
      next[size++] = w;
    }
  }
  Object.assign(side, { frontier: next, next: frontier, size, level });
  return -1;
}

// Bidirectional level-synchronous BFS: forward over out-edges from s, backward over in-edges from t, always
// growing the smaller frontier. The first node where the sides meet lies on a shortest path: before the level
// that finds it, the sides shared no node, so the shortest path is longer than the two levels already searched,
// and every meeting node of this level closes a path of exactly that length plus one.
export function shortestPathLength(g, s, t, maxDepth) {
  if (s === t) return 0;
  const { forward, backward, stamp } = scratch(g);
  startSide(forward, s, stamp);
  startSide(backward, t, stamp);
  while (forward.size > 0 && backward.size > 0 && forward.level + backward.level < maxDepth) {
    const length = forward.size <= backward.size
      ? expand(forward, g.outOffsets, g.outTargets, backward, stamp)
      : expand(backward, g.inOffsets, g.inTargets, forward, stamp);
    if (length > 0) return length;
  }
  return -1;
}

// The number of nodes reachable from s over out-edges, s excluded.
export function reachableCount(g, s) {
  const { forward: { mark, frontier: queue }, stamp } = scratch(g);
  const { outOffsets: offsets, outTargets: targets } = g;
  mark[s] = stamp;
  queue[0] = s;
  let head = 0;
  let tail = 1;
  while (head < tail) {
    const u = queue[head++];
    for (let e = offsets[u], end = offsets[u + 1]; e < end; e += 1) {
      const w = targets[e];
      if (mark[w] !== stamp) { mark[w] = stamp; queue[tail++] = w; }
    }
  }
  return tail - 1;
}

// Adds `documents` to `histogram` (profiles per AGE, keyed by String(AGE); an absent AGE counts under
// "null") and returns it: call once per batch.
export function ageHistogram(documents, histogram = {}) {
  for (const doc of documents) {
    const key = String(doc.AGE ?? null);
    histogram[key] = (histogram[key] ?? 0) + 1;
  }
  return histogram;
}
