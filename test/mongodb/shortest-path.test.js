// The shortest-path search of the mongodb adapter (adapters/mongodb/shortest-path.js), run against an in-memory stub of
// the two relation query functions it calls, on hand-checked graphs and on random graphs checked against a
// plain breadth-first search. The stub answers from an array of relations and records every call; it stands
// in for the query functions, not for a MongoDB server.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { shortestPath } from '../../adapters/mongodb/shortest-path.js';
import { PATHS, RELATIONS as FIXTURE_RELATIONS } from '../conformance/fixture.js';
import { hopsFrom, mulberry32, randomGraph } from '../helpers/graphs.js';

// The query functions of shortest-path.js over `relations` ([from, to] pairs), answering as the MongoDB queries do:
// outgoing and incoming relations, duplicates included.
function relationQueryStub(pairs) {
  const relations = pairs.map(([_from, _to]) => ({ _from, _to }));
  const calls = [];
  return {
    calls,
    async outgoing(keys) {
      calls.push({ query: 'outgoing', keys: [...keys] });
      const sources = new Set(keys);
      return relations.filter(({ _from }) => sources.has(_from)).map((relation) => ({ ...relation }));
    },
    async incoming(keys) {
      calls.push({ query: 'incoming', keys: [...keys] });
      const targets = new Set(keys);
      return relations.filter(({ _to }) => targets.has(_to)).map((relation) => ({ ...relation }));
    },
  };
}

function assertPath(pairs, path, from, to, hops) {
  const edges = new Set(pairs.map(([a, b]) => `${a} ${b}`));
  assert.ok(Array.isArray(path), `a path from ${from} to ${to}: ${JSON.stringify(path)}`);
  assert.equal(path.length - 1, hops, `${hops} hops: ${JSON.stringify(path)}`);
  assert.equal(path[0], from);
  assert.equal(path.at(-1), to);
  for (let i = 1; i < path.length; i += 1) assert.ok(edges.has(`${path[i - 1]} ${path[i]}`), `${path[i - 1]} -> ${path[i]}`);
}

// Two equally short routes P1 -> P2|P3 -> P4; a reciprocal pair P1 <-> P2; a cycle P4 -> P5 -> P6 -> P4; a
// self-loop on P6 and a duplicate relation P1 -> P2; P7 has no incoming relation, P8 no outgoing one; a chain
// P6 -> P9 -> ... -> P14 -> P8.
const GRAPH = [
  ['P1', 'P2'], ['P2', 'P1'], ['P1', 'P2'], ['P1', 'P3'], ['P2', 'P4'], ['P3', 'P4'], ['P4', 'P5'], ['P5', 'P6'],
  ['P6', 'P4'], ['P6', 'P6'], ['P7', 'P1'], ['P6', 'P9'], ['P9', 'P10'], ['P10', 'P11'], ['P11', 'P12'],
  ['P12', 'P13'], ['P13', 'P14'], ['P14', 'P8'],
];

describe('mongodb shortestPath over the relation query stub', () => {
  test('from === to is [from], without a query', async () => {
    const stub = relationQueryStub(GRAPH);
    assert.deepEqual(await shortestPath(stub, 'P4', 'P4', 15), ['P4']);
    assert.deepEqual(await shortestPath(stub, 'P8', 'P8', 0), ['P8']);
    assert.equal(stub.calls.length, 0);
  });

  test('a direct relation is one hop, found by one query', async () => {
    const stub = relationQueryStub(GRAPH);
    assert.deepEqual(await shortestPath(stub, 'P1', 'P3', 15), ['P1', 'P3']);
    assert.deepEqual(stub.calls, [{ query: 'outgoing', keys: ['P1'] }]);
  });

  test('of two equally short routes either is right, and the answer is minimal', async () => {
    const path = await shortestPath(relationQueryStub(GRAPH), 'P1', 'P4', 15);
    assertPath(GRAPH, path, 'P1', 'P4', 2);
    assert.ok(['P2', 'P3'].includes(path[1]));
    assertPath(GRAPH, await shortestPath(relationQueryStub(GRAPH), 'P7', 'P4', 15), 'P7', 'P4', 3);
  });

  test('cycles, self-loops and duplicate relations neither loop nor lengthen a path', async () => {
    assert.deepEqual(await shortestPath(relationQueryStub(GRAPH), 'P4', 'P6', 15), ['P4', 'P5', 'P6']);
    assert.deepEqual(await shortestPath(relationQueryStub(GRAPH), 'P6', 'P5', 15), ['P6', 'P4', 'P5']);
    assert.deepEqual(await shortestPath(relationQueryStub(GRAPH), 'P2', 'P1', 15), ['P2', 'P1']);
    assert.equal(await shortestPath(relationQueryStub(GRAPH), 'P5', 'P7', 15), null);
  });

  test('the long way round: 12 hops from P7 to P8', async () => {
    assertPath(GRAPH, await shortestPath(relationQueryStub(GRAPH), 'P7', 'P8', 15), 'P7', 'P8', 12);
  });

  test('maxDepth cuts off: a path of exactly maxDepth hops is found, one hop less is null', async () => {
    assertPath(GRAPH, await shortestPath(relationQueryStub(GRAPH), 'P7', 'P8', 12), 'P7', 'P8', 12);
    assert.equal(await shortestPath(relationQueryStub(GRAPH), 'P7', 'P8', 11), null);
    assert.equal(await shortestPath(relationQueryStub(GRAPH), 'P1', 'P3', 0), null);
    assertPath(GRAPH, await shortestPath(relationQueryStub(GRAPH), 'P1', 'P3', 1), 'P1', 'P3', 1);
    assert.equal(await shortestPath(relationQueryStub(GRAPH), 'P1', 'P4', 1), null);
  });

  test('at most maxDepth queries, one per level', async () => {
    const stub = relationQueryStub(GRAPH);
    assert.equal(await shortestPath(stub, 'P7', 'P8', 5), null);
    assert.equal(stub.calls.length, 5);
  });

  test('unreachable: null as soon as one side has nothing new', async () => {
    // P7 has no incoming relation: the backward side, smaller than the forward one after its first level, finds
    // none.
    const stub = relationQueryStub(GRAPH);
    assert.equal(await shortestPath(stub, 'P1', 'P7', 15), null);
    assert.deepEqual(stub.calls, [{ query: 'outgoing', keys: ['P1'] }, { query: 'incoming', keys: ['P7'] }]);
    // P8 has no outgoing relation: the forward side finds nothing in its first level.
    const fromSink = relationQueryStub(GRAPH);
    assert.equal(await shortestPath(fromSink, 'P8', 'P1', 15), null);
    assert.deepEqual(fromSink.calls, [{ query: 'outgoing', keys: ['P8'] }]);
  });

  test('each level expands the side with the smaller frontier', async () => {
    // A fans out to B1..B4, which all lead to C; C -> D. Forward from A grows to 4 nodes, so the backward side
    // (1 node) is expanded next.
    const fan = [['A', 'B1'], ['A', 'B2'], ['A', 'B3'], ['A', 'B4'], ['B1', 'C'], ['B2', 'C'], ['B3', 'C'], ['B4', 'C'], ['C', 'D']];
    const stub = relationQueryStub(fan);
    assertPath(fan, await shortestPath(stub, 'A', 'D', 15), 'A', 'D', 3);
    assert.deepEqual(stub.calls.map(({ query, keys }) => `${query} ${keys.join(',')}`),
      ['outgoing A', 'incoming D', 'incoming C']);
  });

  test('the conformance fixture\'s paths', async () => {
    const pairs = FIXTURE_RELATIONS.map(({ _from, _to }) => [_from, _to]);
    for (const [from, to, maxDepth, hops] of PATHS) {
      const path = await shortestPath(relationQueryStub(pairs), from, to, maxDepth);
      if (hops === null) assert.equal(path, null, `${from} -> ${to} within ${maxDepth}`);
      else assertPath(pairs, path, from, to, hops);
    }
  });
});

// Random directed graphs, from sparse (long paths, many unreachable pairs) to dense (short paths, many
// alternatives), checked against a one-directional breadth-first search.
const RANDOM_GRAPHS = [
  { nodes: 60, edges: 80, seed: 11 },
  { nodes: 80, edges: 200, seed: 12 },
  { nodes: 200, edges: 1600, seed: 13 },
];
const PAIRS_PER_GRAPH = 300;

describe('mongodb graph searches on random graphs', () => {
  for (const spec of RANDOM_GRAPHS) {
    test(`${spec.nodes} nodes, ${spec.edges} relations: shortest paths match plain BFS`, async () => {
      const { random, node, relations, out } = randomGraph(spec, mulberry32);
      const pairs = relations.map(({ _from, _to }) => [_from, _to]);
      let found = 0;
      for (let i = 0; i < PAIRS_PER_GRAPH; i += 1) {
        const from = node();
        const to = node();
        const maxDepth = Math.floor(random() * 16);
        const distance = hopsFrom(out, from).get(to);
        const path = await shortestPath(relationQueryStub(pairs), from, to, maxDepth);
        if (distance === undefined || distance > maxDepth) {
          assert.equal(path, null, `${from} -> ${to} within ${maxDepth}: none expected, got ${JSON.stringify(path)}`);
        } else {
          assertPath(pairs, path, from, to, distance);
          found += 1;
        }
      }
      assert.ok(found > 20, `enough pairs are connected to matter (${found})`);
    });
  }
});
