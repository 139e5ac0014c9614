import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildGraph, outNeighbors } from '../../datasets/graph.js';
import { createRandom } from '../../datasets/random.js';
import { ageHistogram, neighbors, neighbors2, reachableCount, shortestPathLength } from '../../datasets/reference.js';

function graph(n, pairs) {
  return buildGraph(n, Int32Array.from(pairs, ([a]) => a), Int32Array.from(pairs, ([, b]) => b));
}

// 1 -> 2 -> 4 -> 5 -> 1 and 1 -> 3 -> 4, 2 -> 1 closes a 2-cycle, 6 loops on itself, 7 is alone.
const G = graph(7, [[1, 2], [1, 3], [1, 2], [2, 4], [3, 4], [4, 5], [5, 1], [2, 1], [6, 6]]);

test('neighbors are the distinct out-neighbours, sorted', () => {
  assert.deepEqual(neighbors(G, 1), [2, 3]);
  assert.deepEqual(neighbors(G, 4), [5]);
  assert.deepEqual(neighbors(G, 7), []);
  assert.deepEqual(neighbors(G, 6), [6]);
});

test('neighbors2 holds 1- and 2-hop targets once each, never the start', () => {
  assert.deepEqual(neighbors2(G, 1), [2, 3, 4]);
  assert.deepEqual(neighbors2(G, 2), [1, 3, 4, 5]);
  assert.deepEqual(neighbors2(G, 4), [1, 5]);
  assert.deepEqual(neighbors2(G, 5), [1, 2, 3]);
  assert.deepEqual(neighbors2(G, 6), []);
  assert.deepEqual(neighbors2(G, 7), []);
});

test('shortest path lengths by hand', () => {
  assert.equal(shortestPathLength(G, 1, 5, 15), 3);
  assert.equal(shortestPathLength(G, 5, 4, 15), 3);
  assert.equal(shortestPathLength(G, 3, 2, 15), 4);
  assert.equal(shortestPathLength(G, 2, 1, 15), 1);
  assert.equal(shortestPathLength(G, 1, 1, 15), 0);
  assert.equal(shortestPathLength(G, 7, 7, 15), 0);
  assert.equal(shortestPathLength(G, 1, 7, 15), -1);
  assert.equal(shortestPathLength(G, 7, 1, 15), -1);
  assert.equal(shortestPathLength(G, 1, 6, 15), -1);
  assert.equal(shortestPathLength(G, 6, 1, 15), -1);
});

test('maxDepth cuts the search off at exactly that many hops', () => {
  assert.equal(shortestPathLength(G, 3, 2, 4), 4);
  assert.equal(shortestPathLength(G, 3, 2, 3), -1);
  assert.equal(shortestPathLength(G, 1, 5, 2), -1);
  assert.equal(shortestPathLength(G, 2, 1, 1), 1);
  assert.equal(shortestPathLength(G, 2, 1, 0), -1);
});

function plainBfs(g, s, t, maxDepth) {
  const depth = new Map([[s, 0]]);
  const queue = [s];
  for (let head = 0; head < queue.length; head += 1) {
    const u = queue[head];
    if (u === t) return depth.get(u);
    if (depth.get(u) === maxDepth) continue;
    for (const w of outNeighbors(g, u)) {
      if (!depth.has(w)) { depth.set(w, depth.get(u) + 1); queue.push(w); }
    }
  }
  return -1;
}

test('bidirectional search agrees with a plain BFS on random graphs', () => {
  const rng = createRandom(11);
  for (let round = 0; round < 20; round += 1) {
    const n = 20 + rng.int(200);
    const pairs = Array.from({ length: n * (1 + rng.int(3)) }, () => [1 + rng.int(n), 1 + rng.int(n)]);
    const g = graph(n, pairs);
    for (let q = 0; q < 50; q += 1) {
      const s = 1 + rng.int(n);
      const t = 1 + rng.int(n);
      const maxDepth = 1 + rng.int(8);
      assert.equal(shortestPathLength(g, s, t, maxDepth), plainBfs(g, s, t, maxDepth), `n ${n}, ${s} -> ${t}, max ${maxDepth}`);
    }
  }
});

test('reachableCount counts the nodes reachable from the start, without it', () => {
  assert.equal(reachableCount(G, 1), 4);
  assert.equal(reachableCount(G, 3), 4);
  assert.equal(reachableCount(G, 6), 0);
  assert.equal(reachableCount(G, 7), 0);
});

test('the age histogram counts profiles per AGE and accumulates over batches', () => {
  const histogram = ageHistogram([{ AGE: 0 }, { AGE: 23 }, { AGE: 0 }]);
  assert.deepEqual(histogram, { 0: 2, 23: 1 });
  assert.equal(ageHistogram([{ AGE: 23 }, { AGE: 101 }, {}], histogram), histogram);
  assert.deepEqual(histogram, { 0: 2, 23: 2, 101: 1, null: 1 });
});
