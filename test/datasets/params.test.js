import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { before, after, test } from 'node:test';
import { RELATIONS_FILE, generate } from '../../datasets/generate.js';
import { buildGraph, inDegree, outNeighbors } from '../../datasets/graph.js';
import { deriveParams } from '../../datasets/params.js';
import { loadRelationIds } from '../../datasets/read.js';
import { reachableCount } from '../../datasets/reference.js';
import { MAX_PATH_DEPTH, SCALES } from '../../datasets/scales.js';

const graphs = {};
let dir;

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'db-shootout-params-'));
  for (const scale of ['tiny', 'small']) {
    const { profiles } = await generate({ dir: path.join(dir, scale), scale, seed: 1 });
    const ids = await loadRelationIds(path.join(dir, scale, RELATIONS_FILE));
    graphs[scale] = buildGraph(profiles, ids.from, ids.to);
  }
});

after(() => rm(dir, { recursive: true, force: true }));

// Hops of a shortest path, by a plain BFS independent of the reference's bidirectional search.
function hops(g, s, t) {
  const depth = new Map([[s, 0]]);
  const queue = [s];
  for (let head = 0; head < queue.length; head += 1) {
    const u = queue[head];
    if (u === t) return depth.get(u);
    for (const w of outNeighbors(g, u)) {
      if (!depth.has(w)) { depth.set(w, depth.get(u) + 1); queue.push(w); }
    }
  }
  return -1;
}

test('the same graph and seed give the same parameters; another seed others', () => {
  const g = graphs.tiny;
  assert.deepEqual(deriveParams(g, SCALES.tiny, 1), deriveParams(g, SCALES.tiny, 1));
  assert.notDeepEqual(deriveParams(g, SCALES.tiny, 2).readIds, deriveParams(g, SCALES.tiny, 1).readIds);
});

for (const scale of ['tiny', 'small']) {
  test(`${scale}: counts, disjoint warm-up ids, prefixes of the read ids`, () => {
    const g = graphs[scale];
    const sizes = SCALES[scale];
    const params = deriveParams(g, sizes, 1);
    const all = [...params.readIds, ...params.warmupIds, ...params.writeIds, ...params.pathPairs.flat(), ...params.hardPair];
    assert.ok(all.every((id) => Number.isInteger(id) && id >= 1 && id <= g.n));
    assert.equal(params.readIds.length, sizes.reads);
    assert.equal(new Set(params.readIds).size, sizes.reads);
    assert.equal(params.warmupIds.length, sizes.warmups);
    assert.equal(new Set([...params.readIds, ...params.warmupIds]).size, sizes.reads + sizes.warmups);
    assert.equal(params.writeIds.length, Math.max(sizes.writes, sizes.writesSync));
    assert.deepEqual(params.neighborStarts, params.readIds.slice(0, sizes.neighborStarts));
    assert.deepEqual(params.neighbors2dataStarts, params.readIds.slice(0, sizes.neighbors2dataStarts));
  });

  test(`${scale}: every path pair is connected within ${MAX_PATH_DEPTH} hops; the hard pair is not connected`, () => {
    const g = graphs[scale];
    const params = deriveParams(g, SCALES[scale], 1);
    assert.equal(params.pathPairs.length, SCALES[scale].pathPairs);
    for (const [s, t] of params.pathPairs) {
      assert.notEqual(s, t);
      const length = hops(g, s, t);
      assert.ok(length >= 1 && length <= MAX_PATH_DEPTH, `P${s} -> P${t}: ${length} hops`);
    }
    const [s, t] = params.hardPair;
    assert.notEqual(s, t);
    assert.equal(inDegree(g, t), 0);
    assert.equal(hops(g, s, t), -1);
    assert.ok(reachableCount(g, s) > g.n / 2, `the hard path's start reaches ${reachableCount(g, s)} profiles`);
  });
}

test('a graph without an in-degree-0 node has no hard pair, and one too small has no parameters', () => {
  const ring = (n) => buildGraph(n, Int32Array.from({ length: n }, (_, i) => i + 1), Int32Array.from({ length: n }, (_, i) => (i + 1) % n + 1));
  const sizes = { ...SCALES.tiny, reads: 10, warmups: 5, writes: 10, writesSync: 5, neighborStarts: 5, neighbors2dataStarts: 2, pathPairs: 3 };
  assert.throws(() => deriveParams(ring(50), sizes, 1), { code: 'E_DATASET', message: /in-degree 0/ });
  assert.throws(() => deriveParams(ring(12), sizes, 1), { code: 'E_DATASET', message: /15 distinct profiles; there are 12/ });
});
