// Seeded random directed graphs, and the answers a database's graph operations must give on them, worked out
// in plain JavaScript: hop counts by breadth-first search, one- and two-hop neighbourhoods. The adapters' tests
// import the graph, ask the database and compare.
import assert from 'node:assert/strict';

// Two seeded generators: each test file keeps the one its graphs were drawn with, so that the graphs, and the
// pairs searched on them, stay those the file was written (and its coverage checks tuned) against.

// xorshift32.
export function xorshift32(seed) {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

// mulberry32: small, seeded, good enough to spread edges evenly.
export function mulberry32(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

// `edges` relations between the profiles P1..P<nodes>, drawn with `generator` seeded by `seed`; duplicate
// relations and self-loops are kept, as the dataset has them. `random` and `node` go on drawing from the same
// generator, for the searches on the graph; `out` maps each key to the set of keys it has a relation to.
export function randomGraph({ nodes, edges, seed }, generator) {
  const random = generator(seed);
  const node = () => `P${1 + Math.floor(random() * nodes)}`;
  const relations = Array.from({ length: edges }, () => ({ _from: node(), _to: node() }));
  const out = new Map();
  for (const { _from, _to } of relations) out.set(_from, (out.get(_from) ?? new Set()).add(_to));
  return { nodes, random, node, relations, out };
}

// Hop counts from `start` to everything it reaches, in the order breadth-first search reaches them.
export function hopsFrom(out, start) {
  const hops = new Map([[start, 0]]);
  const queue = [start];
  for (const node of queue) {
    for (const next of out.get(node) ?? []) {
      if (!hops.has(next)) {
        hops.set(next, hops.get(node) + 1);
        queue.push(next);
      }
    }
  }
  return hops;
}

// The keys `key` has a relation to, sorted.
export function neighbours(out, key) {
  return [...(out.get(key) ?? [])].sort();
}

// The keys within two hops of `key`, without `key` itself, sorted.
export function twoHopNeighbours(out, key) {
  const found = new Set(out.get(key));
  for (const first of out.get(key) ?? []) for (const second of out.get(first) ?? []) found.add(second);
  found.delete(key);
  return [...found].sort();
}

// `count` searches { from, to, maxDepth, hops } drawn from the graph's generator. Half of the targets are
// reachable from `from`, so that sparse graphs give long paths too; maxDepth is 0..maxDepthLimit; `hops` is the
// length of the shortest path, or null when there is none within maxDepth.
export function pathCases(graph, count, maxDepthLimit) {
  return Array.from({ length: count }, () => {
    const from = graph.node();
    const reached = hopsFrom(graph.out, from);
    const to = graph.random() < 0.5 ? [...reached.keys()][Math.floor(graph.random() * reached.size)] : graph.node();
    const maxDepth = Math.floor(graph.random() * (maxDepthLimit + 1));
    const hops = reached.get(to) ?? null;
    return { from, to, maxDepth, hops: hops !== null && hops <= maxDepth ? hops : null };
  });
}

// Runs db.shortestPath for every case, `concurrency` at a time, as a benchmark run does; the paths in case order.
export async function searchPaths(db, cases, concurrency) {
  let next = 0;
  const paths = new Array(cases.length);
  await Promise.all(Array.from({ length: Math.min(concurrency, cases.length) }, async () => {
    while (next < cases.length) {
      const i = next;
      next += 1;
      paths[i] = await db.shortestPath(cases[i].from, cases[i].to, cases[i].maxDepth);
    }
  }));
  return paths;
}

// `path` is a path of exactly `hops` relations of the graph from `from` to `to`.
export function assertPath(path, out, from, to, hops, label) {
  assert.ok(Array.isArray(path), `${label}: ${JSON.stringify(path)} is a path`);
  assert.equal(path.length - 1, hops, label);
  assert.equal(path[0], from, label);
  assert.equal(path.at(-1), to, label);
  for (let j = 1; j < path.length; j += 1) {
    assert.ok(out.get(path[j - 1])?.has(path[j]), `${label}: ${path[j - 1]} -> ${path[j]} is not a relation`);
  }
}

// Every path is minimal, made of the graph's relations and within maxDepth, and null where breadth-first search
// finds none; and the cases were worth checking: more than a quarter of them have a path, one of 4 hops or more.
export function assertPathCases(cases, paths, out) {
  let found = 0;
  let longest = 0;
  cases.forEach(({ from, to, maxDepth, hops }, i) => {
    const label = `${from} -> ${to} within ${maxDepth}: ${JSON.stringify(paths[i])}`;
    if (hops === null) {
      assert.equal(paths[i], null, label);
      return;
    }
    found += 1;
    longest = Math.max(longest, hops);
    assertPath(paths[i], out, from, to, hops, label);
  });
  assert.ok(found > cases.length / 4, `only ${found} pairs have a path: the test checks too little`);
  assert.ok(longest >= 4, `the longest path found has ${longest} hops: the test checks too little`);
}

// neighbors and neighbors2 of every profile agree with the adjacency lists.
export async function assertNeighbourSets(db, graph) {
  for (let i = 1; i <= graph.nodes; i += 1) {
    const key = `P${i}`;
    assert.deepStrictEqual((await db.neighbors(key)).sort(), neighbours(graph.out, key), key);
    assert.deepStrictEqual((await db.neighbors2(key)).sort(), twoHopNeighbours(graph.out, key), key);
  }
}
