import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { buildGraph, hasEdge, inNeighbors, loadGraph, outNeighbors, saveGraph } from '../../datasets/graph.js';

const edges = (pairs) => ({ from: Int32Array.from(pairs, ([a]) => a), to: Int32Array.from(pairs, ([, b]) => b) });

function sample() {
  const { from, to } = edges([[3, 1], [1, 3], [1, 2], [1, 3], [2, 1], [4, 4], [1, 5]]);
  return buildGraph(5, from, to);
}

test('adjacency lists are sorted and distinct in both directions', () => {
  const g = sample();
  assert.equal(g.n, 5);
  assert.equal(g.outOffsets.length, 7);
  assert.deepEqual([...outNeighbors(g, 1)], [2, 3, 5]);
  assert.deepEqual([...outNeighbors(g, 5)], []);
  assert.deepEqual([...outNeighbors(g, 4)], [4]);
  assert.deepEqual([...inNeighbors(g, 1)], [2, 3]);
  assert.deepEqual([...inNeighbors(g, 3)], [1]);
  assert.equal(g.outTargets.length, 6);
  assert.equal(g.inTargets.length, 6);
});

test('hasEdge follows the direction of a relation', () => {
  const g = sample();
  assert.equal(hasEdge(g, 1, 5), true);
  assert.equal(hasEdge(g, 5, 1), false);
  assert.equal(hasEdge(g, 3, 1), true);
  assert.equal(hasEdge(g, 1, 4), false);
  assert.equal(hasEdge(g, 4, 4), true);
  assert.equal(hasEdge(g, 0, 1), false);
  assert.equal(hasEdge(g, 6, 1), false);
});

test('a relation naming an id outside 1..n is a dataset error', () => {
  for (const pair of [[1, 6], [0, 1], [7, 2]]) {
    const { from, to } = edges([pair]);
    assert.throws(() => buildGraph(5, from, to), { code: 'E_DATASET', message: /outside 1\.\.5/ });
  }
});

async function tempFile(t) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'db-shootout-graph-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return path.join(dir, 'graph.bin');
}

test('a saved graph loads back identical', async (t) => {
  const file = await tempFile(t);
  const g = sample();
  await saveGraph(g, file);
  assert.deepEqual(await loadGraph(file), g);
});

const CORRUPTIONS = [
  ['a wrong magic', (bytes) => { bytes[0] = 0x58; }, /magic/],
  ['another format version', (bytes) => { bytes[8] = 9; }, /version/],
  ['a node count that does not fit the size', (bytes) => { bytes[12] += 1; }, /bytes where the header implies/],
  ['decreasing offsets', (bytes) => { bytes.writeInt32LE(5, 24 + 4 * 2); }, /offsets/],
  ['a target outside 1..n', (bytes) => { bytes.writeInt32LE(9, 24 + 4 * 7); }, /names id 9/],
];

for (const [problem, corrupt, message] of CORRUPTIONS) {
  test(`a graph file with ${problem} is rejected`, async (t) => {
    const file = await tempFile(t);
    await saveGraph(sample(), file);
    const bytes = await readFile(file);
    corrupt(bytes);
    await writeFile(file, bytes);
    await assert.rejects(loadGraph(file), { code: 'E_DATASET', message });
  });
}

test('a truncated, empty or missing graph file is rejected', async (t) => {
  const file = await tempFile(t);
  await saveGraph(sample(), file);
  await truncate(file, 60);
  await assert.rejects(loadGraph(file), { code: 'E_DATASET', message: /bytes where the header implies/ });
  await truncate(file, 3);
  await assert.rejects(loadGraph(file), { code: 'E_DATASET', message: /shorter than its header/ });
  await assert.rejects(loadGraph(`${file}.missing`), { code: 'E_DATASET', message: /cannot open/ });
});
