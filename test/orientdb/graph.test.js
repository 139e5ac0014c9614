// The orientdb adapter's graph suite beyond the conformance cases: the load's bookkeeping and the write scripts
// (pure), and against the local server of `bench server start orientdb`: the loaded link bags agree with the edge
// records, OrientDB's own traversals see the edges, and concurrent batches of upserts sharing vertices all land,
// one edge per pair.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import orientdb from '../../adapters/orientdb/description.js';
import { EdgeLoad } from '../../adapters/orientdb/edge-load.js';
import { graphNames, removeScript, upsertScript } from '../../adapters/orientdb/graph.js';
import { serverTarget } from '../helpers/servers.js';

const batch = (edges) => ({
  length: edges.length,
  source: Int32Array.from(edges, ([s]) => s),
  target: Int32Array.from(edges, ([, t]) => t),
  weight: Int32Array.from(edges, ([, , w]) => w),
});
const rid = (cluster, position) => ({ cluster, position });

describe('orientdb graph load and scripts (pure)', () => {
  test('EdgeLoad: new vertices once, and each vertex\'s bags hold the RIDs of its edges, sorted', () => {
    const load = new EdgeLoad();
    assert.deepEqual(load.newVertices(batch([[1, 2, 0], [1, 3, 0], [3, 1, 0]])), [1, 2, 3]);
    load.addVertex(1, rid(20, 0));
    load.addVertex(2, rid(21, 0));
    load.addVertex(3, rid(20, 2 ** 36));
    assert.deepEqual(load.newVertices(batch([[3, 4, 0], [4, 1, 0]])), [4]);
    assert.deepEqual(load.rid(3), rid(20, 2 ** 36));
    assert.throws(() => load.rid(4), /no record of vertex 4/);
    // Created out of order, as a transaction's answer lists them.
    load.addEdge(rid(20, 0), rid(20, 2 ** 36), rid(31, 7));
    load.addEdge(rid(20, 0), rid(21, 0), rid(30, 9));
    load.addEdge(rid(20, 2 ** 36), rid(20, 0), rid(30, 1));
    assert.deepEqual([...load.takeBags()], [
      { rid: rid(20, 0), out: [rid(30, 9), rid(31, 7)], in: [rid(30, 1)] },
      { rid: rid(21, 0), out: [], in: [rid(30, 9)] },
      { rid: rid(20, 2 ** 36), out: [rid(30, 1)], in: [rid(31, 7)] },
    ]);
  });

  test('upsertScript finds or creates each distinct vertex once, then upserts each edge, in one transaction', () => {
    const names = graphNames('orientdb', 'edges');
    const { script, params } = upsertScript(names, [{ source: 1, target: 2, weight: 5 }, { source: 2, target: 1, weight: 0 }]);
    const lines = script.split('\n');
    assert.equal(lines[0], 'BEGIN;');
    assert.match(lines.at(-1), /^COMMIT RETRY \d+;$/);
    assert.deepEqual(lines.slice(1, -1), [
      'LET v0 = UPDATE Tmp_g_edges_V SET id = :v0 UPSERT RETURN AFTER WHERE id = :v0;',
      'LET v1 = UPDATE Tmp_g_edges_V SET id = :v1 UPSERT RETURN AFTER WHERE id = :v1;',
      'CREATE EDGE Tmp_g_edges UPSERT FROM $v0 TO $v1 SET weight = :w0;',
      'CREATE EDGE Tmp_g_edges UPSERT FROM $v1 TO $v0 SET weight = :w1;',
    ]);
    assert.deepEqual(params, { v0: 1, v1: 2, w0: 5, w1: 0 });
  });

  test('removeScript deletes each pair\'s edge in one transaction', () => {
    const { script, params } = removeScript(graphNames('orientdb', 'edges'), [{ source: 3, target: 4 }]);
    assert.match(script, /^BEGIN;\nDELETE EDGE Tmp_g_edges FROM \(SELECT FROM Tmp_g_edges_V WHERE id = :s0\) TO \(SELECT FROM Tmp_g_edges_V WHERE id = :t0\);\nCOMMIT RETRY \d+;$/);
    assert.deepEqual(params, { s0: 3, t0: 4 });
  });
});

const { options, skip } = serverTarget(orientdb, { namespace: 'dbshootout_orienttest_graph' });

describe('orientdb graph collections', { skip }, () => {
  let db;

  before(async () => {
    await orientdb.testSupport.dropNamespace(options);
    db = orientdb.create(options);
    await db.connect();
    await db.resetNamespace();
  });

  after(async () => {
    await db?.close();
    await orientdb.testSupport.dropNamespace(options);
  });

  test('the loaded bags agree with the edge records, and OrientDB\'s traversals see the edges', async () => {
    // Two batches, the second adding edges to vertices of the first.
    await db.graph.create('edges');
    await db.graph.importEdges('edges', batch([[1, 2, 5], [1, 3, 6], [2, 1, 7]]));
    await db.graph.importEdges('edges', batch([[3, 1, 8], [4, 1, 9]]));
    await db.graph.index('edges');
    assert.equal(await db.graph.count('edges'), 5);
    assert.deepEqual((await db.graph.friends('edges', 1)).sort(), [2, 3, 4]);
    assert.deepEqual(await db.graph.countFollowers('edges', 1), { count: 3, weight: 24 });
    assert.deepEqual(await db.graph.countFriends('edges', 1), { count: 5, weight: 35 });
    assert.deepEqual(await db.graph.countFriends('edges', 99), { count: 0, weight: 0 });
  });

  // The vertices exist (as in the suite's writes, whose new pairs join existing vertices): concurrent scripts
  // meet on their link bags, and COMMIT RETRY runs a script again that lost the race.
  test('concurrent upsertEdges and removeEdges batches sharing vertices all land, one edge per pair', async () => {
    const pairs = [];
    for (let s = 1; s <= 12; s += 1) for (let t = 1; t <= 12; t += 1) if (s !== t) pairs.push({ source: s, target: t, weight: s * t });
    await db.graph.upsertEdges('edges', pairs.filter(({ source, target }) => target === source + 1));
    const batches = Array.from({ length: 4 }, (_, i) => pairs.filter((_, j) => j % 4 === i).reverse());
    await Promise.all(batches.map((edges) => db.graph.upsertEdges('edges', edges)));
    assert.equal(await db.graph.count('edges'), pairs.length);
    for (const { source, target, weight } of pairs) {
      assert.deepEqual(await db.graph.findEdge('edges', source, target), { source, target, weight });
    }
    assert.deepEqual((await db.graph.inEdges('edges', 12)).length, 11);
    await Promise.all(batches.map((edges) => db.graph.removeEdges('edges', edges.map(({ source, target }) => ({ source, target })))));
    assert.equal(await db.graph.count('edges'), 0);
    assert.deepEqual(await db.graph.countFriends('edges', 1), { count: 0, weight: 0 }, 'the bags hold no removed edge');
  });
});
