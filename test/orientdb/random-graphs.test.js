// The server-side graph queries against a breadth-first search in JavaScript, on seeded random graphs from
// sparse (long paths, many unreachable pairs) to dense (short paths with many alternatives): OrientDB's own
// shortestPath() with the adapter's maxDepth correction, and the one- and two-hop neighbourhoods, with duplicate
// relations and self-loops. The searches run 25 at a time, as in a benchmark run. Runs against the local server
// of `bench server start orientdb`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import orientdb from '../../adapters/orientdb/description.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_orienttest_graphs';
const GRAPHS = [
  { nodes: 100, edges: 150, seed: 11 },
  { nodes: 100, edges: 260, seed: 12 },
  { nodes: 300, edges: 3000, seed: 13 },
];
const PAIRS = 400;
const CONCURRENCY = 25;
const MAX_DEPTH = 16;

// xorshift32, seeded: the same graphs and pairs on every run.
function generator(seed) {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

function randomGraph({ nodes, edges, seed }) {
  const random = generator(seed);
  const node = () => `P${1 + Math.floor(random() * nodes)}`;
  const relations = Array.from({ length: edges }, () => ({ _from: node(), _to: node() }));
  const out = new Map();
  for (const { _from, _to } of relations) {
    if (!out.has(_from)) out.set(_from, new Set());
    out.get(_from).add(_to);
  }
  return { random, node, relations, out };
}

// Hop counts from `start` to everything it reaches.
function hopsFrom(out, start) {
  const hops = new Map([[start, 0]]);
  let frontier = [start];
  for (let depth = 1; frontier.length > 0; depth += 1) {
    const next = [];
    for (const a of frontier) {
      for (const b of out.get(a) ?? []) {
        if (!hops.has(b)) {
          hops.set(b, depth);
          next.push(b);
        }
      }
    }
    frontier = next;
  }
  return hops;
}

const { options, skip } = serverTarget(orientdb, { namespace: NAMESPACE, concurrency: CONCURRENCY });

for (const spec of GRAPHS) {
  describe(`orientdb graph queries on ${spec.nodes} nodes and ${spec.edges} random relations`, { skip }, () => {
    const graph = randomGraph(spec);
    let db;

    before(async () => {
      db = orientdb.create(options);
      await db.connect();
      await db.resetNamespace();
      await db.importProfiles(Array.from({ length: spec.nodes }, (_, i) => ({ _key: `P${i + 1}`, AGE: i % 5 })));
      // In batches, as the importer sends them.
      for (let i = 0; i < graph.relations.length; i += 1000) await db.importRelations(graph.relations.slice(i, i + 1000));
      await db.createIndexes();
    });

    after(async () => {
      await db.close();
      await orientdb.testSupport.dropNamespace(options);
    });

    test('shortestPath agrees with breadth-first search: length, relations, maxDepth, null', async () => {
      const cases = Array.from({ length: PAIRS }, () => {
        const from = graph.node();
        const reached = hopsFrom(graph.out, from);
        // Half the targets are reachable, so the sparse graphs give long paths too.
        const to = graph.random() < 0.5 ? [...reached.keys()][Math.floor(graph.random() * reached.size)] : graph.node();
        const maxDepth = Math.floor(graph.random() * (MAX_DEPTH + 1));
        const hops = reached.get(to);
        return { from, to, maxDepth, expected: hops !== undefined && hops <= maxDepth ? hops : null };
      });
      let next = 0;
      const paths = new Array(cases.length);
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (next < cases.length) {
          const i = next;
          next += 1;
          paths[i] = await db.shortestPath(cases[i].from, cases[i].to, cases[i].maxDepth);
        }
      }));
      cases.forEach(({ from, to, maxDepth, expected }, i) => {
        const path = paths[i];
        const label = `${from} -> ${to} within ${maxDepth}: ${JSON.stringify(path)}`;
        if (expected === null) {
          assert.equal(path, null, label);
          return;
        }
        assert.equal(path.length - 1, expected, label);
        assert.equal(path[0], from, label);
        assert.equal(path.at(-1), to, label);
        for (let j = 1; j < path.length; j += 1) assert.ok(graph.out.get(path[j - 1])?.has(path[j]), label);
      });
      const found = cases.filter(({ expected }) => expected !== null);
      assert.ok(found.length > PAIRS / 4, `only ${found.length} pairs have a path: the test checks too little`);
      assert.ok(Math.max(...found.map(({ expected }) => expected)) >= 4, 'no path of 4 hops or more was checked');
    });

    test('neighbors and neighbors2 agree with the adjacency lists', async () => {
      for (let i = 1; i <= spec.nodes; i += 1) {
        const key = `P${i}`;
        const one = graph.out.get(key) ?? new Set();
        const two = new Set(one);
        for (const a of one) for (const b of graph.out.get(a) ?? []) two.add(b);
        two.delete(key);
        assert.deepStrictEqual((await db.neighbors(key)).sort(), [...one].sort(), key);
        assert.deepStrictEqual((await db.neighbors2(key)).sort(), [...two].sort(), key);
      }
    });
  });
}
