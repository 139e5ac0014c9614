// The mongodb adapter's graph suite without a server: its filters and pipelines run through the evaluator of the
// stages they use (pipeline-evaluator.js, written from MongoDB's documented semantics; not MongoDB) over a random
// weighted edge list, every vertex's answer checked against the suite's reference with the suite's own checks;
// and the import documents, the indexes, the bulk write statements and the collection names. What a real server
// answers is checked by the conformance suite, which needs one (BENCH_MONGODB_URL).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import mongodb from '../../adapters/mongodb/description.js';
import {
  EDGE_PROJECTION, INDEXES, edgeDocuments, friendsPipeline, inFilter, removeOperations, tallyPipeline, touchingFilter,
  upsertOperations,
} from '../../adapters/mongodb/graph.js';
import { graphCollectionName, isOwnCollection, strangers } from '../../adapters/mongodb/namespace.js';
import { createRandom } from '../../datasets/random.js';
import { countProblem, edgeListProblem, edgeProblem, idListProblem } from '../../workloads/graph/check.js';
import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';
import { EdgeReference } from '../../workloads/graph/reference.js';
import { runPipeline } from './pipeline-evaluator.js';

const MAX = 2 ** 31 - 1;
const COLLECTION = 'g_edges';

// Sorted by source then target, distinct pairs, no self-loops; a hub (1), a reciprocal pair, a vertex with only
// in-edges (6), and the largest id and weights, so that a vertex's sum passes 2^31.
function edgeList() {
  const edges = new Map();
  const add = (source, target, weight) => {
    if (source !== target) edges.set(`${source} ${target}`, { source, target, weight });
  };
  [[1, 2, 5], [2, 1, 3], [3, 6, 0], [1, MAX, MAX], [MAX, 1, MAX], [MAX, 6, 1]].forEach(([s, t, w]) => add(s, t, w));
  const random = createRandom(7, 1);
  for (let i = 0; i < 400; i += 1) add(10 + random.int(30), 10 + random.int(30), random.int(1000));
  for (let v = 10; v < 40; v += 1) add(v, 1, v);
  const sorted = [...edges.values()].sort((a, b) => a.source - b.source || a.target - b.target);
  return {
    length: sorted.length,
    source: Int32Array.from(sorted, ({ source }) => source),
    target: Int32Array.from(sorted, ({ target }) => target),
    weight: Int32Array.from(sorted, ({ weight }) => weight),
  };
}

const EDGES = edgeList();
const reference = new EdgeReference(EDGES);
const VERTICES = [...reference.vertices(), 99];
// The collection as the server would hold it after the import: each document with an _id of its own.
const stored = { [COLLECTION]: edgeDocuments(EDGES).map((doc, i) => ({ _id: `e${i}`, ...doc })) };

// What graph.js asks the server for, evaluated here: a find is its filter and projection.
const found = (filter) => runPipeline(stored, COLLECTION, [{ $match: filter }, { $project: { ...EDGE_PROJECTION } }]);
const tally = ([row]) => ({ count: row?.count ?? 0, weight: row?.weight ?? 0 });

describe('mongodb graph suite: the filters and pipelines, evaluated in memory', () => {
  test('the import documents hold the batch\'s numbers, one per edge, in order', () => {
    const documents = edgeDocuments(EDGES);
    assert.equal(documents.length, EDGES.length);
    documents.forEach((doc, i) => assert.deepEqual(doc, { source: EDGES.source[i], target: EDGES.target[i], weight: EDGES.weight[i] }));
    assert.ok(documents.every((doc) => Object.values(doc).every((value) => typeof value === 'number')), 'numbers, not typed-array views');
  });

  test('findEdge\'s filter answers every edge, its reverse and an absent pair, without _id', () => {
    const pairs = [[99, 1], [1, 99], [6, MAX]];
    for (let i = 0; i < EDGES.length; i += 1) pairs.push([EDGES.source[i], EDGES.target[i]], [EDGES.target[i], EDGES.source[i]]);
    for (const [source, target] of pairs) {
      const answers = found({ source, target });
      assert.ok(answers.length <= 1, `${source}->${target}: at most one document`);
      assert.equal(edgeProblem(reference.findEdge(source, target), answers[0] ?? null), null, `${source}->${target}`);
    }
  });

  test('edgesOf and inEdges answer the reference for every vertex and an absent one', () => {
    for (const vertex of VERTICES) {
      assert.equal(edgeListProblem(reference.edgesOf(vertex), found(touchingFilter(vertex))), null, `edgesOf(${vertex})`);
      assert.equal(edgeListProblem(reference.inEdges(vertex), found(inFilter(vertex))), null, `inEdges(${vertex})`);
    }
  });

  test('friends answers each neighbour once, whichever way its edges run', () => {
    for (const vertex of VERTICES) {
      const ids = runPipeline(stored, COLLECTION, friendsPipeline(vertex)).map(({ _id }) => _id);
      assert.equal(idListProblem(reference.friends(vertex), ids), null, `friends(${vertex})`);
    }
    assert.deepEqual(runPipeline(stored, COLLECTION, friendsPipeline(2)).map(({ _id }) => _id), [1], 'a reciprocal pair is one friend');
  });

  test('countFriends and countFollowers count and sum in the pipeline, past 2^31, and are 0 for none', () => {
    for (const vertex of VERTICES) {
      const friends = tally(runPipeline(stored, COLLECTION, tallyPipeline(touchingFilter(vertex))));
      const followers = tally(runPipeline(stored, COLLECTION, tallyPipeline(inFilter(vertex))));
      assert.equal(countProblem(reference.countFriends(vertex), friends), null, `countFriends(${vertex})`);
      assert.equal(countProblem(reference.countFollowers(vertex), followers), null, `countFollowers(${vertex})`);
    }
    assert.ok(reference.countFriends(MAX).weight > 2 ** 31, 'the fixture sums past 2^31');
    assert.deepEqual(runPipeline(stored, COLLECTION, tallyPipeline(inFilter(99))), [], 'no group for no edge');
  });
});

describe('mongodb graph suite: writes, indexes and names', () => {
  test('an upsert finds the edge by its pair alone, sets only the weight and inserts a missing pair', () => {
    const edges = [{ source: 1, target: 2, weight: 9 }, { source: 99, target: 1, weight: MAX }];
    assert.deepEqual(upsertOperations(edges), [
      { updateOne: { filter: { source: 1, target: 2 }, update: { $set: { weight: 9 } }, upsert: true } },
      { updateOne: { filter: { source: 99, target: 1 }, update: { $set: { weight: MAX } }, upsert: true } },
    ]);
  });

  test('a removal deletes one document by its pair, whatever else the pair object carries', () => {
    assert.deepEqual(removeOperations([{ source: 3, target: 6, weight: 0 }]), [{ deleteOne: { filter: { source: 3, target: 6 } } }]);
  });

  test('the pair is a unique key and the target end has its own index, each answering one branch of the filters', () => {
    const [pair, targetEnd] = INDEXES;
    assert.deepEqual(Object.keys(pair.key), ['source', 'target']);
    assert.equal(pair.unique, true, 'an upsert relies on one document per pair');
    assert.deepEqual(Object.keys(targetEnd.key), ['target', 'source']);
    assert.deepEqual(touchingFilter(5).$or.map((branch) => Object.keys(branch)[0]), ['source', 'target']);
  });

  test('edge collections are the namespace\'s own, so a reset drops them, and their names are checked', () => {
    assert.equal(graphCollectionName('dbshootout', 'edges'), 'g_edges');
    assert.ok(isOwnCollection(graphCollectionName('dbshootout', 'conformance_edges')));
    assert.deepEqual(strangers([{ name: 'g_edges', type: 'collection' }]), []);
    assert.deepEqual(strangers([{ name: 'g_edges', type: 'view' }]), ['view g_edges']);
    assert.throws(() => graphCollectionName('dbshootout', 'edges.x'), /edge collection name "edges\.x" is not an identifier/);
  });

  test('the description offers every graph operation, and adapter.graph has every method', () => {
    assert.deepEqual(GRAPH_OPERATIONS.filter((operation) => !mongodb.supports.includes(operation)), []);
    const adapter = mongodb.create({ namespace: 'dbshootout', host: '127.0.0.1', port: 27017 });
    for (const method of ['create', 'importEdges', 'index', 'count', 'drop', 'diskUsage', ...GRAPH_OPERATIONS]) {
      assert.equal(typeof adapter.graph[method], 'function', method);
    }
  });
});
