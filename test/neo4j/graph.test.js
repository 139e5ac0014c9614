// The neo4j adapter's graph suite beyond the conformance cases: how a batch becomes the load's statements
// (pure), and against the local server of `bench server start neo4j` (or BENCH_NEO4J_URL): an edge collection
// belongs to its namespace, so resetNamespace() and dropNamespace delete its nodes, relationships and constraint;
// concurrent batches of upserts sharing vertices all land, one relationship per pair.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createDriver } from '../../adapters/neo4j/connection.js';
import neo4j from '../../adapters/neo4j/description.js';
import { graphNames, groupBySource, newVertices, verticesOf } from '../../adapters/neo4j/graph.js';
import { namespaceNames } from '../../adapters/neo4j/schema.js';
import { serverTarget } from '../helpers/servers.js';

const batch = (edges) => ({
  length: edges.length,
  source: Int32Array.from(edges, ([s]) => s),
  target: Int32Array.from(edges, ([, t]) => t),
  weight: Int32Array.from(edges, ([, , w]) => w),
});

describe('neo4j graph load (pure)', () => {
  test('newVertices lists each unknown id once, in order of first appearance, and marks it known', () => {
    const known = new Map([[2, 10]]);
    assert.deepEqual(newVertices(batch([[1, 2, 0], [1, 3, 0], [3, 1, 0], [4, 2, 0]]), known), [1, 3, 4]);
    assert.deepEqual([...known.keys()], [2, 1, 3, 4]);
    assert.deepEqual(newVertices(batch([[1, 3, 0]]), known), []);
  });

  test('groupBySource makes one group per run of a source, ends as node ids, weights beside them', () => {
    const nodeOf = (id) => id * 100;
    assert.deepEqual(groupBySource(batch([[1, 2, 5], [1, 3, 6], [2, 1, 7], [5, 1, 2147483647]]), nodeOf), [
      [100, [200, 300], [5, 6]],
      [200, [100], [7]],
      [500, [100], [2147483647]],
    ]);
    assert.deepEqual(groupBySource(batch([]), nodeOf), []);
  });

  test('verticesOf lists the distinct ends of the edges in ascending order: the order writes lock them', () => {
    assert.deepEqual(verticesOf([{ source: 10, target: 2 }, { source: 2, target: 9 }, { source: 100, target: 10 }]), [2, 9, 10, 100]);
  });

  test('an edge collection is a temporary label of the namespace, with a relationship type of its own', () => {
    const names = namespaceNames('ns');
    const { label, type, keyConstraint } = graphNames(names, 'edges');
    assert.equal(label, 'ns_tmp_g_edges');
    assert.equal(type, 'ns_tmp_g_edges_EDGE');
    assert.ok(names.ownsLabel(label) && names.ownsType(type) && names.ownsSchemaName(keyConstraint));
    assert.ok(!namespaceNames('ns_x').ownsType(type), 'a longer namespace does not own it');
    assert.throws(() => graphNames(names, 'a-b'), /not an identifier/);
  });
});

const NAMESPACE = 'dbshootout_neo4jtest_graph';
const { options, skip } = serverTarget(neo4j, { namespace: NAMESPACE });

describe('neo4j graph collections', { skip }, () => {
  let admin;
  let db;
  const names = graphNames(namespaceNames(NAMESPACE), 'edges');

  async function count(text) {
    const session = admin.session({ database: options.database });
    try {
      return (await session.run(text)).records[0].get(0);
    } finally {
      await session.close();
    }
  }

  const leftovers = async () => ({
    nodes: await count(`MATCH (n:\`${names.label}\`) RETURN count(n)`),
    relationships: await count(`MATCH ()-[r:\`${names.type}\`]->() RETURN count(r)`),
    constraints: await count(`SHOW CONSTRAINTS YIELD name WHERE name = '${names.keyConstraint}' RETURN count(*)`),
  });
  const NONE = { nodes: 0, relationships: 0, constraints: 0 };

  async function load() {
    await db.graph.create('edges');
    await db.graph.importEdges('edges', batch([[1, 2, 5], [1, 3, 6], [2, 1, 7]]));
    await db.graph.index('edges');
    assert.deepEqual(await leftovers(), { nodes: 3, relationships: 3, constraints: 1 });
  }

  before(async () => {
    admin = createDriver({ ...options, concurrency: 1 });
    await neo4j.testSupport.dropNamespace(options);
    db = neo4j.create(options);
    await db.connect();
    await db.resetNamespace();
  });

  after(async () => {
    await db?.close();
    await neo4j.testSupport.dropNamespace(options);
    await admin?.close();
  });

  test('resetNamespace() deletes an edge collection, and the namespace stays owned', async () => {
    await load();
    await db.resetNamespace();
    assert.deepEqual(await leftovers(), NONE);
    assert.equal((await db.inspectNamespace()).state, 'owned');
  });

  test('testSupport.dropNamespace deletes an edge collection with the rest', async () => {
    await load();
    await db.close();
    await neo4j.testSupport.dropNamespace(options);
    assert.deepEqual(await leftovers(), NONE);
    await db.connect();
    assert.equal((await db.inspectNamespace()).state, 'absent');
    await db.resetNamespace();
  });

  // Without the ordered locks of the writes, this failed with Neo.TransientError.Transaction.DeadlockDetected.
  test('concurrent upsertEdges and removeEdges batches sharing vertices all land, one relationship per pair', async () => {
    await load();
    // Eight batches over the same 20 vertices, each pair in one batch only, in different orders.
    const pairs = [];
    for (let s = 1; s <= 20; s += 1) for (let t = 1; t <= 20; t += 1) if (s !== t) pairs.push({ source: s, target: t, weight: s * t });
    const batches = Array.from({ length: 8 }, (_, i) => pairs.filter((_, j) => j % 8 === i).reverse());
    await Promise.all(batches.map((edges) => db.graph.upsertEdges('edges', edges)));
    assert.equal(await db.graph.count('edges'), pairs.length);
    for (const { source, target, weight } of pairs) {
      assert.deepEqual(await db.graph.findEdge('edges', source, target), { source, target, weight });
    }
    await Promise.all(batches.map((edges) => db.graph.removeEdges('edges', edges.map(({ source, target }) => ({ source, target })))));
    assert.equal(await db.graph.count('edges'), 0);
  });
});
