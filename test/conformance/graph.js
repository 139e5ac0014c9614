// Conformance cases of the graph suite: a small weighted edge list (a hub, reciprocal pairs, a vertex with only
// in-edges, the largest ids and weights a 32-bit integer holds, so sums pass 2^31) loaded through the adapter's
// bulk path in two batches, counted and handed back whole by scan; every read operation on every vertex, and on an
// absent one, checked against the reference with the suite's own checks; each write and its read-back; a second load replacing a
// leftover collection; the drop. suite.js includes them; it passes in its helpers.
import assert from 'node:assert/strict';
import { createRandom } from '../../datasets/random.js';
import { countProblem, edgeListProblem, edgeProblem, idListProblem } from '../../workloads/graph/check.js';
import { GRAPH_METHODS, GRAPH_OPERATIONS, READ_OPERATIONS } from '../../workloads/graph/operations.js';
import { EdgeReference } from '../../workloads/graph/reference.js';

const COLLECTION = 'conformance_edges';
const MAX = 2 ** 31 - 1;
export { GRAPH_OPERATIONS };

// Sorted by source then target, distinct pairs, no self-loops: as datasets/edges.js prepares an edge list.
function fixtureEdges() {
  const edges = new Map();
  const add = (source, target, weight) => {
    if (source !== target) edges.set(`${source} ${target}`, { source, target, weight });
  };
  [[1, 2, 5], [2, 1, 3], [1, 3, 7], [3, 4, 0], [4, 1, 2], [5, 1, 8], [1, MAX, MAX], [MAX, 1, MAX], [MAX, 6, 1]]
    .forEach(([s, t, w]) => add(s, t, w));
  const random = createRandom(11, 3);
  for (let i = 0; i < 300; i += 1) add(10 + random.int(40), 10 + random.int(40), random.int(1000));
  // Vertex 1 is the hub: an edge from every one of 10..59.
  for (let v = 10; v < 60; v += 1) add(v, 1, v);
  const sorted = [...edges.values()].sort((a, b) => a.source - b.source || a.target - b.target);
  return {
    length: sorted.length,
    source: Int32Array.from(sorted, (edge) => edge.source),
    target: Int32Array.from(sorted, (edge) => edge.target),
    weight: Int32Array.from(sorted, (edge) => edge.weight),
  };
}

const EDGES = fixtureEdges();
const reference = new EdgeReference(EDGES);
const EDGES_LIST = Array.from({ length: EDGES.length }, (_, i) => reference.edge(i));
// Every vertex, one absent (99), one that has only in-edges (6).
const VERTICES = [...reference.vertices(), 99];

const slice = (edges, from, to) => ({
  length: to - from,
  source: edges.source.slice(from, to),
  target: edges.target.slice(from, to),
  weight: edges.weight.slice(from, to),
});

async function load(adapter, edges) {
  await adapter.graph.create(COLLECTION);
  const half = Math.floor(edges.length / 2);
  await adapter.graph.importEdges(COLLECTION, slice(edges, 0, half));
  await adapter.graph.importEdges(COLLECTION, slice(edges, half, edges.length));
  await adapter.graph.index(COLLECTION);
}

const CHECKS = {
  edgesOf: edgeListProblem,
  inEdges: edgeListProblem,
  friends: idListProblem,
  countFriends: countProblem,
  countFollowers: countProblem,
};

export function graphCases(description, { withAdapter }) {
  const supports = (operation) => description.supports.includes(operation);
  const offered = GRAPH_OPERATIONS.filter(supports);
  const none = offered.length === 0 ? 'no graph operation is supported' : false;
  const cases = [];
  const add = (name, run, skip = none) => cases.push({ name, run, skip });
  const addFor = (operation, name, run) => add(name, run, none || (supports(operation) ? false : `${operation} is not supported`));

  add('graph: adapter.graph offers every method, and every operation not supported has its reason', async ({ options }) => {
    const adapter = description.create(options);
    for (const method of offered.length === 0 ? [] : GRAPH_METHODS.filter((name) => !GRAPH_OPERATIONS.includes(name) || supports(name))) {
      assert.equal(typeof adapter.graph?.[method], 'function', `adapter.graph.${method}() is implemented`);
    }
    for (const operation of GRAPH_OPERATIONS) {
      if (!supports(operation)) assert.equal(typeof description.unsupported?.[operation], 'string', `description.unsupported gives the reason ${operation} is not supported`);
    }
  }, false);

  add('graph: an edge list loads in two batches and counts; a second load replaces a leftover one', async ({ options }) => {
    await withAdapter(description, options, async (adapter) => {
      if ((await adapter.inspectNamespace()).state === 'absent') await adapter.resetNamespace();
      await adapter.graph.drop(COLLECTION);
      assert.equal(await adapter.graph.count(COLLECTION), 0, 'an absent collection counts 0');
      await load(adapter, slice(EDGES, 0, 20));
      assert.equal(await adapter.graph.count(COLLECTION), 20);
      await load(adapter, EDGES);
      assert.equal(await adapter.graph.count(COLLECTION), EDGES.length, 'the second load replaced the first');
    });
  });

  add('graph: scan hands over every stored edge once, in batches, and nothing of an absent collection', async ({ options }) => {
    await withAdapter(description, options, async (adapter) => {
      const batches = [];
      await adapter.graph.scan(COLLECTION, async (batch) => {
        batches.push(batch);
      });
      assert.ok(batches.every((batch) => Array.isArray(batch) && batch.length > 0), 'each batch an array of edges, none empty');
      const problem = edgeListProblem(EDGES_LIST, batches.flat());
      assert.equal(problem, null, `scan: ${problem}`);
      const absent = [];
      await adapter.graph.scan('conformance_absent', async (batch) => { absent.push(batch); });
      assert.deepEqual(absent, [], 'an absent collection holds no edge');
    });
  });

  addFor('findEdge', 'graph: findEdge answers every edge, its reverse, and absent pairs', async ({ options }) => {
    await withAdapter(description, options, async (adapter) => {
      const pairs = [];
      for (let i = 0; i < EDGES.length; i += 1) {
        pairs.push([EDGES.source[i], EDGES.target[i]], [EDGES.target[i], EDGES.source[i]]);
      }
      pairs.push([99, 1], [1, 99], [6, MAX]);
      for (const [source, target] of pairs) {
        const problem = edgeProblem(reference.findEdge(source, target), await adapter.graph.findEdge(COLLECTION, source, target));
        assert.equal(problem, null, `findEdge(${source}, ${target}): ${problem}`);
      }
    });
  });

  for (const operation of READ_OPERATIONS.filter((name) => name !== 'findEdge')) {
    addFor(operation, `graph: ${operation} answers the reference for every vertex and an absent one`, async ({ options }) => {
      await withAdapter(description, options, async (adapter) => {
        for (const vertex of VERTICES) {
          const problem = CHECKS[operation](reference[operation](vertex), await adapter.graph[operation](COLLECTION, vertex));
          assert.equal(problem, null, `${operation}(${vertex}): ${problem}`);
        }
      });
    });
  }

  const writes = ['upsertEdge', 'upsertEdges', 'removeEdge', 'removeEdges'];
  add('graph: upserts insert new pairs and set the weight of existing ones; removals remove; the rest stays', async ({ options }) => {
    await withAdapter(description, options, async (adapter) => {
      const { graph } = adapter;
      const found = (source, target) => graph.findEdge(COLLECTION, source, target);
      const existing = [reference.edge(0), reference.edge(1), reference.edge(2)];
      if (supports('upsertEdge')) {
        await graph.upsertEdge(COLLECTION, { ...existing[0], weight: existing[0].weight + 1 });
        await graph.upsertEdge(COLLECTION, { source: 99, target: 1, weight: MAX });
        assert.deepEqual(await found(existing[0].source, existing[0].target), { ...existing[0], weight: existing[0].weight + 1 });
        assert.deepEqual(await found(99, 1), { source: 99, target: 1, weight: MAX });
        assert.equal(await graph.count(COLLECTION), EDGES.length + 1);
      }
      if (supports('removeEdge')) {
        await graph.removeEdge(COLLECTION, { source: 99, target: 1 });
        assert.equal(await found(99, 1), null);
      }
      const batch = [{ ...existing[1], weight: 0 }, { ...existing[2], weight: 12345 },
        ...Array.from({ length: 40 }, (_, i) => ({ source: 100 + i, target: 200 + i, weight: i }))];
      if (supports('upsertEdges')) {
        await graph.upsertEdges(COLLECTION, batch);
        for (const edge of batch) assert.deepEqual(await found(edge.source, edge.target), edge);
        if (supports('countFollowers')) assert.deepEqual(await graph.countFollowers(COLLECTION, 205), { count: 1, weight: 5 });
      }
      if (supports('removeEdges')) {
        const fresh = batch.slice(2).map(({ source, target }) => ({ source, target }));
        if (!supports('upsertEdges')) return;
        await graph.removeEdges(COLLECTION, fresh);
        for (const { source, target } of fresh) assert.equal(await found(source, target), null, `${source}->${target} was removed`);
      }
      // Restored through the operations themselves, as the suite restores after a write workload.
      if (supports('upsertEdges')) {
        await graph.upsertEdges(COLLECTION, existing);
        for (const edge of existing) assert.deepEqual(await found(edge.source, edge.target), edge);
        assert.equal(await graph.count(COLLECTION), EDGES.length, 'back to the edge list');
      }
    });
  }, none || (writes.some(supports) ? false : 'no graph write operation is supported'));

  add('graph: the collection drops, and dropping it again does nothing', async ({ options }) => {
    await withAdapter(description, options, async (adapter) => {
      await adapter.graph.drop(COLLECTION);
      assert.equal(await adapter.graph.count(COLLECTION), 0);
      await adapter.graph.drop(COLLECTION);
    });
  });

  return cases;
}
