// Reference answers computed from the relation files alone, with plain BFS over the compact graph: what every
// database's answer is checked against.
import { outNeighbors } from './graph.js';

// Visit marks and frontiers, allocated once per graph: a call bumps the stamp instead of clearing the marks.
const scratchByGraph = new WeakMap();

function scratch(g) {
  let s = scratchByGraph.get(g);
  if (!s) {
    const size = g.n + 1;
    s = {
      stamp: 0,
      markF: new Int32Array(size), depthF: new Int32Array(size), frontF: new Int32Array(size), nextF: new Int32Array(size),
      markB: new Int32Array(size), depthB: new Int32Array(size), frontB: new Int32Array(size), nextB: new Int32Array(size),
    };
    scratchByGraph.set(g, s);
  }
  s.stamp += 1;
  return s;
}

export function neighbors(g, id) {
  return Array.from(outNeighbors(g, id));
}

export function neighbors2(g, id) {
  const { markF: mark, stamp } = scratch(g);
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

// One level of one side of the search: visits the unvisited neighbours of the frontier and returns the new
// frontier's size and the shortest total length through a node the other side has already visited.
function expand(offsets, targets, frontier, size, next, mark, depth, otherMark, otherDepth, stamp, level) {
  let nextSize = 0;
  let best = Infinity;
  for (let i = 0; i < size; i += 1) {
    const u = frontier[i];
    for (let e = offsets[u], end = offsets[u + 1]; e < end; e += 1) {
      const w = targets[e];
      if (mark[w] === stamp) continue;
      mark[w] = stamp;
      depth[w] = level;
      next[nextSize++] = w;
      if (otherMark[w] === stamp && level + otherDepth[w] < best) best = level + otherDepth[w];
    }
  }
  return { nextSize, best };
}

// Bidirectional level-synchronous BFS: forward over out-edges from s, backward over in-edges from t, always
// growing the smaller frontier. The first level at which the two sides meet holds a shortest path.
export function shortestPathLength(g, s, t, maxDepth) {
  if (s === t) return 0;
  const sc = scratch(g);
  const { stamp } = sc;
  let { frontF, nextF, frontB, nextB } = sc;
  sc.markF[s] = stamp; sc.depthF[s] = 0; frontF[0] = s;
  sc.markB[t] = stamp; sc.depthB[t] = 0; frontB[0] = t;
  let sizeF = 1;
  let sizeB = 1;
  let levelF = 0;
  let levelB = 0;
  while (sizeF > 0 && sizeB > 0 && levelF + levelB < maxDepth) {
    if (sizeF <= sizeB) {
      levelF += 1;
      const { nextSize, best } = expand(g.outOffsets, g.outTargets, frontF, sizeF, nextF, sc.markF, sc.depthF, sc.markB, sc.depthB, stamp, levelF);
      if (best !== Infinity) return best;
      [frontF, nextF, sizeF] = [nextF, frontF, nextSize];
    } else {
      levelB += 1;
      const { nextSize, best } = expand(g.inOffsets, g.inTargets, frontB, sizeB, nextB, sc.markB, sc.depthB, sc.markF, sc.depthF, stamp, levelB);
      if (best !== Infinity) return best;
      [frontB, nextB, sizeB] = [nextB, frontB, nextSize];
    }
  }
  return -1;
}

// The number of nodes reachable from s over out-edges, s excluded.
export function reachableCount(g, s) {
  const { markF: mark, frontF: queue, stamp } = scratch(g);
  mark[s] = stamp;
  queue[0] = s;
  let head = 0;
  let tail = 1;
  const { outOffsets: offsets, outTargets: targets } = g;
  while (head < tail) {
    const u = queue[head++];
    for (let e = offsets[u], end = offsets[u + 1]; e < end; e += 1) {
      const w = targets[e];
      if (mark[w] !== stamp) { mark[w] = stamp; queue[tail++] = w; }
    }
  }
  return tail - 1;
}

// Adds `documents` to `histogram` (profiles per AGE, keyed by String(AGE)); call once per batch.
export function ageHistogram(documents, histogram = {}) {
  for (const doc of documents) {
    const key = String(doc.AGE ?? null);
    histogram[key] = (histogram[key] ?? 0) + 1;
  }
  return histogram;
}
