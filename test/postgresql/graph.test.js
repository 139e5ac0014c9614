// The graph suite's edge table in PostgreSQL (adapters/postgresql/graph.js): the binary COPY rows it writes, and,
// against the local server of `bench server start postgresql`, what the conformance cases do not look at: the
// key and index the load leaves, the plans of the reads, a batch that fails as a whole, an import given up by
// close(). The answers themselves are the conformance cases' (test/conformance/graph.js).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import postgresql from '../../adapters/postgresql/description.js';
import { binaryParts, binaryRows } from '../../adapters/postgresql/graph.js';
import { clientConfig } from '../../adapters/postgresql/connection.js';
import { batchOf, edgeList } from '../helpers/edge-lists.js';
import { edgeTable, edgeTableWrites } from '../helpers/edge-table.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_pgtest_graph';
const MAX = 2 ** 31 - 1;

// Rows of COPY's binary format back into [source, target, weight], checking each row's framing.
function decode(buffer) {
  const rows = [];
  for (let at = 0; at < buffer.length; at += 26) {
    assert.equal(buffer.readInt16BE(at), 3, 'three fields per row');
    const fields = [0, 1, 2].map((k) => {
      assert.equal(buffer.readInt32BE(at + 2 + 8 * k), 4, 'each field four bytes long');
      return buffer.readInt32BE(at + 6 + 8 * k);
    });
    rows.push(fields);
  }
  return rows;
}

describe('postgresql graph: binary COPY rows', () => {
  const batch = batchOf([[1, 2, 0], [1, MAX, MAX], [MAX, 1, 7], [300, 70000, 65536]]);

  test('each edge is three big-endian 32-bit fields, the largest ids and weights included', () => {
    assert.deepEqual(decode(binaryRows(batch, 0, 4)), [[1, 2, 0], [1, MAX, MAX], [MAX, 1, 7], [300, 70000, 65536]]);
    assert.deepEqual(decode(binaryRows(batch, 1, 3)), [[1, MAX, MAX], [MAX, 1, 7]]);
  });

  test('a batch splits into consecutive slices, none empty, that hold every edge once', () => {
    assert.deepEqual(binaryParts(batch, 2).map(decode), [[[1, 2, 0], [1, MAX, MAX]], [[MAX, 1, 7], [300, 70000, 65536]]]);
    assert.deepEqual(binaryParts(batch, 3).map((part) => decode(part).length), [2, 2]);
    const one = batchOf([[5, 6, 1]]);
    assert.deepEqual(binaryParts(one, 2).map(decode), [[[5, 6, 1]]]);
  });
});

const { options, skip } = serverTarget(postgresql, { namespace: NAMESPACE });

describe('postgresql graph: the edge table', { skip }, () => {
  const COLLECTION = 'edges';
  const TABLE = `"${NAMESPACE}"."tmp_g_${COLLECTION}"`;
  const EDGES = edgeList(30000, 15);
  const table = edgeTable(postgresql, options, { collection: COLLECTION, edges: EDGES });
  let admin;

  const plan = async (sql) => (await admin.query(`EXPLAIN (COSTS OFF) ${sql}`)).rows.map((row) => row['QUERY PLAN']).join('\n');

  before(async () => {
    admin = new pg.Client(clientConfig(options));
    await admin.connect();
  });

  after(async () => {
    await admin?.end();
  });

  test('the load leaves the primary key on (source, target) and an index on (target, source)', async () => {
    const { rows } = await admin.query({
      text: `SELECT i.indisprimary, i.indisunique, array_to_string(array_agg(a.attname ORDER BY k.n), ',')
             FROM pg_index AS i CROSS JOIN unnest(i.indkey) WITH ORDINALITY AS k (attnum, n)
             JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
             WHERE i.indrelid = $1::regclass GROUP BY i.indexrelid, i.indisprimary, i.indisunique ORDER BY 1 DESC`,
      values: [TABLE],
      rowMode: 'array',
    });
    assert.deepEqual(rows, [[true, true, 'source,target'], [false, false, 'target,source']]);
    assert.equal(await table.db.graph.count(COLLECTION), EDGES.length);
  });

  test('every read is answered from the indexes, none by a sequential scan', async () => {
    const reads = {
      findEdge: `SELECT weight FROM ${TABLE} WHERE source = 7 AND target = 9`,
      edgesOf: `SELECT source, target, weight FROM ${TABLE} WHERE source = 7 UNION ALL SELECT source, target, weight FROM ${TABLE} WHERE target = 7`,
      inEdges: `SELECT source, target, weight FROM ${TABLE} WHERE target = 7`,
      countFollowers: `SELECT count(*), sum(weight) FROM ${TABLE} WHERE target = 7`,
    };
    for (const [operation, sql] of Object.entries(reads)) {
      const text = await plan(sql);
      assert.doesNotMatch(text, /Seq Scan/, `${operation}: ${text}`);
      assert.match(text, /Index|Bitmap/, `${operation}: ${text}`);
    }
    // VACUUM set the visibility map: friends reads the two indexes alone.
    const friends = await plan(`SELECT target FROM ${TABLE} WHERE source = 7 UNION SELECT source FROM ${TABLE} WHERE target = 7`);
    assert.equal(friends.match(/Index Only Scan/g)?.length, 2, friends);
  });

  edgeTableWrites(table, { refusedWeight: 'a weight out of range', weight: 2 ** 31, refused: /out of range/, load: 'COPYs' });

  test('diskUsage counts the table with its indexes, and 0 for a collection that does not exist', async () => {
    const { rows: [[heap]] } = await admin.query({ text: 'SELECT pg_relation_size($1::regclass)::float8', values: [TABLE], rowMode: 'array' });
    const bytes = await table.db.graph.diskUsage(COLLECTION);
    // Each index takes at least a third of the heap's pages here (two integers against three per row).
    assert.ok(bytes > heap * 1.6, `${bytes} bytes against a heap of ${heap}`);
    assert.equal(await table.db.graph.diskUsage('absent'), 0);
  });
});
