// DuckDB's graph suite beyond the shared conformance cases: the appender's data chunks at batch lengths around
// the vector size, the three ART indexes index() builds, a batch upsert that fails writing nothing, concurrent
// upserts of the same pairs (write-write conflicts sent again), and the namespace's reset removing the edges.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import duckdb from '../../adapters/duckdb/description.js';
import { namespaceTables } from '../../adapters/duckdb/schema.js';
import { distinctEdges } from '../helpers/edge-lists.js';
import { assertUpsertAllOrNone } from '../helpers/edge-table.js';

const NAMESPACE = 'dbshootout';
const TABLE = namespaceTables(NAMESPACE).temp('g_edges');
const CONCURRENCY = 4;
const TARGETS = 10;

describe('duckdb graph suite', () => {
  let dir;
  let file;
  let db;
  const list = distinctEdges(1 + 2047 + 2048 + 2049 + 5000, TARGETS);

  const open = async () => {
    db = duckdb.create({ namespace: NAMESPACE, database: file, concurrency: CONCURRENCY });
    await db.connect();
  };

  // Another connection's view of the file, while the adapter is closed (one process opens it at a time).
  async function inspect(sql) {
    await db.close();
    const instance = await DuckDBInstance.create(file);
    try {
      const connection = await instance.connect();
      try {
        return (await connection.runAndReadAll(sql)).getRowsJS();
      } finally {
        connection.disconnectSync();
      }
    } finally {
      instance.closeSync();
      await open();
    }
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'db-shootout-duckdb-graph-'));
    file = join(dir, 'graph.duckdb');
    await open();
    await db.resetNamespace();
  });

  after(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('batches of any length load whole, across data chunks of the vector size', async () => {
    await db.graph.create('edges');
    let from = 0;
    for (const length of [1, 2047, 2048, 2049, 5000]) {
      await db.graph.importEdges('edges', list.batch(from, from + length));
      from += length;
    }
    await db.graph.index('edges');
    assert.equal(await db.graph.count('edges'), list.edges.length);
    for (let t = 0; t < TARGETS; t += 1) {
      const into = list.edges.filter(({ target }) => target === 100_000 + t);
      assert.deepEqual(await db.graph.countFollowers('edges', 100_000 + t),
        { count: into.length, weight: into.reduce((sum, { weight }) => sum + weight, 0) });
    }
    for (const i of [0, 1, 2047, 2048, 2049, 4095, 4096, list.edges.length - 1]) {
      const edge = list.edges[i];
      assert.deepEqual(await db.graph.findEdge('edges', edge.source, edge.target), edge);
    }
  });

  test('index() builds the unique key on (source, target) and an ART index on each end', async () => {
    const rows = await inspect(`SELECT index_name, expressions, is_unique FROM duckdb_indexes() WHERE table_name = '${TABLE}' ORDER BY index_name`);
    assert.deepEqual(rows, [
      [`${TABLE}_key`, `['"source"', '"target"']`, true],
      [`${TABLE}_source`, `['"source"']`, false],
      [`${TABLE}_target`, `['"target"']`, false],
    ]);
  });

  test('a batch upsert that fails on one edge writes none of them', async () => {
    const [first] = list.edges;
    await assertUpsertAllOrNone(db.graph, 'edges', { first, weight: null, refused: /NOT NULL/, count: list.edges.length });
  });

  test('concurrent upserts of the same pairs all settle, each pair left with one of the weights written', async () => {
    const pairs = [{ source: 1, target: 100_000 }, { source: 9_999, target: 1 }];
    const weights = Array.from({ length: 4 * CONCURRENCY }, (_, i) => 1_000 + i);
    await Promise.all(weights.flatMap((weight) => [
      db.graph.upsertEdge('edges', { ...pairs[0], weight }),
      db.graph.upsertEdges('edges', pairs.map((pair) => ({ ...pair, weight }))),
    ]));
    for (const pair of pairs) {
      const edge = await db.graph.findEdge('edges', pair.source, pair.target);
      assert.ok(weights.includes(edge?.weight), `${pair.source}->${pair.target} holds a written weight: ${JSON.stringify(edge)}`);
    }
    assert.equal(await db.graph.count('edges'), list.edges.length + 1);
    await db.graph.removeEdges('edges', [pairs[1]]);
    await db.graph.upsertEdge('edges', list.edges[0]);
  });

  test('resetNamespace removes the edge collection with everything else', async () => {
    await db.resetNamespace();
    assert.equal(await db.graph.count('edges'), 0);
    const left = await inspect(`SELECT table_name FROM duckdb_tables() WHERE table_name LIKE '%g\\_%' ESCAPE '\\'`);
    assert.deepEqual(left, []);
  });
});
