import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite from '../../adapters/sqlite/description.js';

// Random directed graphs, from sparse (paths up to ~15 hops, many unreachable pairs) to dense (short paths
// with many alternatives), each checked against a plain breadth-first search in JavaScript.
const GRAPHS = [
  { nodes: 80, edges: 120, seed: 1 },
  { nodes: 80, edges: 200, seed: 2 },
  { nodes: 200, edges: 1600, seed: 3 },
];
const PAIRS_PER_GRAPH = 300;
const MAX_DEPTH_LIMIT = 16;

// mulberry32: small, seeded, good enough to spread edges evenly.
function random(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function makeGraph({ nodes, edges, seed }) {
  const next = random(seed);
  const pick = () => `P${1 + Math.floor(next() * nodes)}`;
  const relations = Array.from({ length: edges }, () => ({ _from: pick(), _to: pick() }));
  const out = new Map();
  for (const { _from, _to } of relations) out.set(_from, (out.get(_from) ?? new Set()).add(_to));
  return { nodes, next, pick, relations, out };
}

// Hop counts from `from` to every node it reaches.
function distances(out, from) {
  const seen = new Map([[from, 0]]);
  const queue = [from];
  for (const node of queue) {
    for (const next of out.get(node) ?? []) {
      if (!seen.has(next)) {
        seen.set(next, seen.get(node) + 1);
        queue.push(next);
      }
    }
  }
  return seen;
}

function withinTwoHops(out, key) {
  const found = new Set(out.get(key));
  for (const first of out.get(key) ?? []) for (const second of out.get(first) ?? []) found.add(second);
  found.delete(key);
  return [...found].sort();
}

for (const spec of GRAPHS) {
  describe(`sqlite graph operations on a random graph of ${spec.nodes} nodes and ${spec.edges} relations`, () => {
    const graph = makeGraph(spec);
    let dir;
    let db;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'db-shootout-sqlite-'));
      db = sqlite.create({ namespace: 'dbshootout', database: join(dir, 'graph.sqlite') });
      await db.connect();
      await db.resetNamespace();
      await db.writeMarker({ dataset: `random-${spec.seed}` });
      await db.importProfiles(Array.from({ length: spec.nodes }, (_, i) => ({ _key: `P${i + 1}`, AGE: i % 7 })));
      await db.importRelations(graph.relations);
      await db.createIndexes();
    });

    after(async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test('shortestPath is minimal, follows relations, and respects maxDepth', async () => {
      let found = 0;
      let longest = 0;
      for (let i = 0; i < PAIRS_PER_GRAPH; i += 1) {
        const from = graph.pick();
        const reached = distances(graph.out, from);
        // Half of the targets are reachable, so sparse graphs test long paths too.
        const to = graph.next() < 0.5 ? [...reached.keys()][Math.floor(graph.next() * reached.size)] : graph.pick();
        const maxDepth = Math.floor(graph.next() * (MAX_DEPTH_LIMIT + 1));
        const hops = reached.get(to) ?? null;
        const path = await db.shortestPath(from, to, maxDepth);
        const label = `${from} -> ${to} within ${maxDepth}`;
        if (hops === null || hops > maxDepth) {
          assert.equal(path, null, label);
          continue;
        }
        found += 1;
        longest = Math.max(longest, hops);
        assert.equal(path.length - 1, hops, label);
        assert.equal(path[0], from, label);
        assert.equal(path.at(-1), to, label);
        for (let j = 1; j < path.length; j += 1) assert.ok(graph.out.get(path[j - 1])?.has(path[j]), label);
      }
      assert.ok(found > PAIRS_PER_GRAPH / 4, `only ${found} pairs had a path: the test checks too little`);
      assert.ok(longest >= 4, `the longest path found has ${longest} hops: the test checks too little`);
    });

    test('neighbors and neighbors2 match the adjacency lists', async () => {
      for (let i = 1; i <= spec.nodes; i += 1) {
        const key = `P${i}`;
        assert.deepStrictEqual((await db.neighbors(key)).sort(), [...(graph.out.get(key) ?? [])].sort(), key);
        assert.deepStrictEqual((await db.neighbors2(key)).sort(), withinTwoHops(graph.out, key), key);
      }
    });
  });
}
