// The graph suite's edge table in MariaDB (adapters/mysql/graph.js): the rows it hands to LOAD DATA, and, against
// the local server of `bench server start mariadb`, what the conformance cases do not look at: the key and index
// the load leaves, the plans of the reads, a batch that fails as a whole, an import given up by close(). The
// answers themselves are the conformance cases' (test/conformance/graph.js).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import mysql from '../../adapters/mysql/description.js';
import { openConnection } from '../../adapters/mysql/connection.js';
import { edgeRows, rowParts } from '../../adapters/mysql/graph.js';
import { batchOf, edgeList } from '../helpers/edge-lists.js';
import { edgeTable, edgeTableWrites } from '../helpers/edge-table.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_test_graph';
const MAX = 2 ** 31 - 1;

const rowsOf = ({ indexes, toRow }) => indexes.map(toRow);

describe('mysql graph: the rows of a batch', () => {
  const batch = batchOf([[1, 2, 0], [1, MAX, MAX], [MAX, 1, 7], [300, 70000, 65536]]);

  test('each edge is its three numbers as decimal text', () => {
    assert.deepEqual(rowsOf(edgeRows(batch, 1, 3)), [['1', String(MAX), String(MAX)], [String(MAX), '1', '7']]);
  });

  test('a batch splits into consecutive slices, none empty, that hold every edge once', () => {
    assert.deepEqual(rowParts(batch, 2).map(rowsOf), [[['1', '2', '0'], ['1', String(MAX), String(MAX)]],
      [[String(MAX), '1', '7'], ['300', '70000', '65536']]]);
    assert.deepEqual(rowParts(batch, 3).map((part) => part.indexes.length), [2, 2]);
    assert.deepEqual(rowParts(batchOf([[5, 6, 1]]), 2).map(rowsOf), [[['5', '6', '1']]]);
  });
});

const { options, skip } = serverTarget(mysql, { namespace: NAMESPACE });

describe('mysql graph: the edge table', { skip, timeout: 300_000 }, () => {
  const COLLECTION = 'edges';
  const TABLE = `\`${NAMESPACE}\`.tmp_g_${COLLECTION}`;
  const EDGES = edgeList(30000, 15);
  const table = edgeTable(mysql, options, { collection: COLLECTION, edges: EDGES });
  let admin;

  // EXPLAIN's rows as { table, type, key }, one per table access.
  const plan = async (sql) => (await admin.query(`EXPLAIN ${sql}`))[0];

  before(async () => {
    admin = await openConnection(options);
  });

  after(async () => {
    await admin?.end();
  });

  test('the load leaves the primary key on (source, target) and an index on (target, source)', async () => {
    const [rows] = await admin.query(
      `SELECT INDEX_NAME AS name, NON_UNIQUE AS nonUnique, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) AS columns
       FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? GROUP BY INDEX_NAME, NON_UNIQUE
       ORDER BY INDEX_NAME`, [NAMESPACE, `tmp_g_${COLLECTION}`]);
    assert.deepEqual(rows.map(({ name, nonUnique, columns }) => [name, Number(nonUnique), columns]),
      [['PRIMARY', 0, 'source,target'], ['target_source', 1, 'target,source']]);
    assert.equal(await table.db.graph.count(COLLECTION), EDGES.length);
  });

  test('every read is answered from the indexes, none by a full scan', async () => {
    // A pair that exists: for an absent one the plan is an "Impossible WHERE", with no table access to show.
    const [source, target] = [EDGES.source[100], EDGES.target[100]];
    const reads = {
      findEdge: [`SELECT weight FROM ${TABLE} WHERE source = ${source} AND target = ${target}`, ['PRIMARY']],
      edgesOf: [`SELECT source, target, weight FROM ${TABLE} WHERE source = 7 UNION ALL SELECT source, target, weight FROM ${TABLE} WHERE target = 7`, ['PRIMARY', 'target_source']],
      inEdges: [`SELECT source, target, weight FROM ${TABLE} WHERE target = 7`, ['target_source']],
      friends: [`SELECT target FROM ${TABLE} WHERE source = 7 UNION SELECT source FROM ${TABLE} WHERE target = 7`, ['PRIMARY', 'target_source']],
      countFollowers: [`SELECT COUNT(*), SUM(weight) FROM ${TABLE} WHERE target = 7`, ['target_source']],
      removeEdges: [`DELETE FROM ${TABLE} WHERE (source, target) IN ((${source}, ${target}), (8, 10))`, null],
    };
    for (const [operation, [sql, keys]] of Object.entries(reads)) {
      const accesses = (await plan(sql)).filter(({ table }) => table && !table.startsWith('<'));
      const shown = JSON.stringify(accesses);
      assert.ok(accesses.length > 0, `${operation}: ${shown}`);
      for (const { type } of accesses) assert.notEqual(type, 'ALL', `${operation} scans the whole table: ${shown}`);
      if (keys) assert.deepEqual(accesses.map(({ key }) => key), keys, `${operation}: ${shown}`);
    }
  });

  // STRICT_TRANS_TABLES (MariaDB's default sql_mode) refuses a negative weight instead of storing 0.
  edgeTableWrites(table, { refusedWeight: 'a negative weight', weight: -1, refused: /Out of range/, load: 'LOAD DATA' });

  test('diskUsage counts the table with its index, and 0 for a collection that does not exist', async () => {
    // InnoDB's pages of 16 KiB: at least the clustered index and the target index.
    assert.ok(await table.db.graph.diskUsage(COLLECTION) >= 2 * 16384);
    assert.equal(await table.db.graph.diskUsage('absent'), 0);
  });
});
