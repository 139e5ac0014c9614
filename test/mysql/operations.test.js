// The mysql adapter's operations against the local MariaDB server, on a hand-made graph whose answers are
// known, and its shortest path against a JavaScript breadth-first search on random graphs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CASE_NAMES } from '../../workloads/queries/cases.js';
import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';
import mysql from '../../adapters/mysql/description.js';
import { insertBatch, tsvChunks } from '../../adapters/mysql/bulk.js';
import { openConnection } from '../../adapters/mysql/connection.js';
import { PROFILES as SHARED_PROFILES, RELATIONS, graphTests } from '../helpers/fixture-graph-sqlite.js';
import { assertNeighbourSets, assertPathCases, mulberry32, pathCases, randomGraph, searchPaths } from '../helpers/graphs.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_test_operations';
const { options, skip } = serverTarget(mysql, { namespace: NAMESPACE });

// The shared hand-made graph's profiles, with every character that LOAD DATA or SQL text treats specially and
// text outside the Basic Multilingual Plane added, and P8 without AGE (counted under "null").
const TEXT = {
  P3: { more: 'tab\there, newline\nhere, CR\rhere, backslash \\ and \\N and \\t, quotes \' " `, NUL \u0000 end' },
  P4: { fun: 'NULL' },
  P5: { music: 'emoji 😀 and 𝄞, a lone surrogate \ud800 too' },
  P7: { hobbies: '' },
};
const PROFILES = SHARED_PROFILES.map(({ ...doc }) => {
  if (doc._key === 'P8') delete doc.AGE;
  return { ...doc, ...TEXT[doc._key] };
});

async function dropNamespace(namespace) {
  const connection = await openConnection(options);
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${namespace}\``);
  } finally {
    await connection.end();
  }
}

describe('mysql adapter on a hand-made graph', { skip, timeout: 300_000 }, () => {
  let db;

  before(async () => {
    db = mysql.create(options);
    await db.connect();
    await db.resetNamespace();
    await db.writeMarker({ dataset: 'hand-made' });
    await db.importProfiles(PROFILES.slice(0, 5));
    await db.importProfiles(PROFILES.slice(5));
    await db.importRelations(RELATIONS.slice(0, 4));
    await db.importRelations(RELATIONS.slice(4));
    await db.createIndexes();
    await db.warmup();
  });

  after(async () => {
    await db?.close();
    await dropNamespace(NAMESPACE);
  });

  test('counts every imported profile and relation, duplicates included', async () => {
    assert.deepEqual(await db.counts(), { profiles: 8, relations: 15 });
  });

  test('singleRead returns the exact document, and null for a missing key', async () => {
    for (const doc of PROFILES) assert.deepStrictEqual(await db.singleRead(doc._key), doc);
    assert.equal(await db.singleRead('P999'), null);
  });

  test('keys compare exactly: case and accents matter', async () => {
    assert.equal(await db.singleRead('p1'), null);
    assert.deepEqual(await db.neighbors('p1'), []);
    await db.createTempCollection('keys');
    await db.singleWrite('keys', { _key: 'K', v: 1 });
    await db.singleWrite('keys', { _key: 'k', v: 2 });
    await db.singleWrite('keys', { _key: 'é', v: 3 });
    await db.singleWrite('keys', { _key: 'e', v: 4 });
    assert.equal(await db.countDocuments('keys'), 4);
    assert.deepEqual(await db.readDocument('keys', 'k'), { _key: 'k', v: 2 });
    assert.deepEqual(await db.readDocument('keys', 'é'), { _key: 'é', v: 3 });
    await db.dropTempCollection('keys');
  });

  test('aggregation counts profiles per AGE, keyed by the age as a string, absent AGE as "null"', async () => {
    assert.deepStrictEqual(await db.aggregation(), { 0: 2, 17: 1, 21: 1, 26: 2, 33: 1, null: 1 });
  });

  graphTests(() => db, PROFILES);

  test('both write modes insert into a temporary collection', async () => {
    await db.createTempCollection('writes');
    await db.singleWrite('writes', { _key: 'W1', AGE: 30, region: 'žilinský kraj', more: 'a\tb\\c 😀' });
    await db.singleWriteSync('writes', { _key: 'W2', AGE: 31 });
    assert.equal(await db.countDocuments('writes'), 2);
    assert.deepStrictEqual(await db.readDocument('writes', 'W1'),
      { _key: 'W1', AGE: 30, region: 'žilinský kraj', more: 'a\tb\\c 😀' });
    assert.deepStrictEqual(await db.readDocument('writes', 'W2'), { _key: 'W2', AGE: 31 });
    assert.equal(await db.readDocument('writes', 'W3'), null);
    await assert.rejects(db.singleWrite('writes', { _key: 'W1' }), { code: 'ER_DUP_ENTRY' });

    await db.createTempCollection('writes');
    assert.equal(await db.countDocuments('writes'), 0, 'creating again drops the leftover');
    await db.dropTempCollection('writes');
    await assert.rejects(db.countDocuments('writes'), { code: 'ER_NO_SUCH_TABLE' });
    assert.deepEqual(await db.counts(), { profiles: 8, relations: 15 });
  });

  test('temporary collection names must be identifiers', async () => {
    await assert.rejects(db.createTempCollection('x; DROP DATABASE dbshootout'), { code: 'E_USAGE' });
    await assert.rejects(db.singleWrite('a-b', { _key: 'W1' }), { code: 'E_USAGE' });
    await assert.rejects(db.createTempCollection('x'.repeat(61)), { code: 'E_USAGE' });
    assert.deepEqual(await db.counts(), { profiles: 8, relations: 15 });
  });

  test('reports its version and the settings that matter', async () => {
    assert.match(await db.serverVersion(), /^10\.11\.\d+-MariaDB/);
    const settings = await db.settings();
    assert.deepStrictEqual(Object.keys(settings), [
      'innodb_buffer_pool_size', 'innodb_flush_log_at_trx_commit', 'log_bin', 'sync_binlog',
      'innodb_doublewrite', 'innodb_log_file_size', 'innodb_sort_buffer_size', 'max_connections', 'version_comment',
    ]);
    assert.equal(typeof settings.innodb_buffer_pool_size, 'number');
    assert.ok([0, 1, 2].includes(settings.innodb_flush_log_at_trx_commit));
    assert.equal(typeof settings.version_comment, 'string');
  });
});

describe('mysql bulk import', { skip }, () => {
  const namespace = `${NAMESPACE}_bulk`;
  let db;
  let connection;

  before(async () => {
    db = mysql.create({ ...options, namespace });
    await db.connect();
    connection = await openConnection(options);
  });

  after(async () => {
    await connection?.end();
    await db?.close();
    await dropNamespace(namespace);
  });

  test('rows that LOAD DATA does not take whole fail the flush: an import error, not a silent loss', async () => {
    await db.resetNamespace();
    // The two rows go to the two streams, and the one that commits second finds the duplicate; or, with InnoDB's
    // bulk insert, to the one stream, which takes the first.
    await db.importProfiles([{ _key: 'P1', AGE: 1 }, { _key: 'P1', AGE: 2 }]);
    await assert.rejects(db.flushProfiles(), { code: 'E_IMPORT', message: /took [01] of [12] rows.*Duplicate entry/ });
    await db.importRelations([{ _from: 'P1', _to: 'P'.repeat(40) }]);
    await assert.rejects(db.flushRelations(), { code: 'E_IMPORT', message: /took 1 of 1 rows with 1 warnings/ });
    // The adapter goes on. What a failed phase left is not an import: two streams keep the rows of the one that
    // committed; InnoDB's bulk insert keeps the rows before the duplicate, and may drop others (MariaDB 10.11).
    const counts = await db.counts();
    assert.equal(counts.relations, 1, 'the adapter goes on');
    assert.ok(counts.profiles <= 1);
  });

  test('keys holding the characters LOAD DATA treats specially arrive unchanged', async () => {
    await db.resetNamespace();
    const keys = ['a\tb', 'c\nd', 'e\\f', '\\N', 'NULL', '', 'g\\'];
    await db.importRelations(keys.map((key, i) => ({ _from: key, _to: keys[(i + 1) % keys.length] })));
    await db.createIndexes();
    for (const [i, key] of keys.entries()) {
      assert.deepEqual(await db.neighbors(key), [keys[(i + 1) % keys.length]], JSON.stringify(key));
    }
    assert.deepEqual(await db.counts(), { profiles: 0, relations: keys.length });
  });

  test('multi-row INSERT, the path for servers without local_infile, stores the same documents', async () => {
    await db.resetNamespace();
    const table = `\`${namespace}\`.profiles`;
    const toRow = (doc) => [doc._key, JSON.stringify(doc)];
    // A small packet limit forces one statement per few rows.
    const load = (maxAllowedPacket, docs) =>
      insertBatch(connection, maxAllowedPacket, table, ['_key', 'doc'], docs, toRow);
    await load(4096, PROFILES);
    for (const doc of PROFILES) assert.deepStrictEqual(await db.singleRead(doc._key), doc);
    await assert.rejects(load(1 << 20, [PROFILES[0]]), { code: 'ER_DUP_ENTRY' });
    assert.deepEqual(await db.counts(), { profiles: PROFILES.length, relations: 0 });
  });
});

describe('mysql LOAD DATA text', () => {
  const toRow = (row) => row;
  const text = (chunks) => Buffer.concat([...chunks]).toString('utf8');

  test('escapes exactly backslash, tab and newline, and ends every row with a newline', () => {
    const rows = [['a\tb', 'c\nd\re'], ['\\N', 'ž 😀 "q" \'s\'']];
    assert.equal(text(tsvChunks(rows, toRow)), 'a\\tb\tc\\nd\re\n\\\\N\tž 😀 "q" \'s\'\n');
  });

  test('splits a large batch into chunks that end at row boundaries', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => [`P${i}`, 'x'.repeat(100)]);
    const chunks = [...tsvChunks(rows, toRow)];
    assert.ok(chunks.length > 1, `${chunks.length} chunk`);
    for (const chunk of chunks) assert.equal(chunk.at(-1), 0x0a);
    assert.equal(text(chunks), rows.map((row) => `${row.join('\t')}\n`).join(''));
  });
});

// Random directed graphs, from sparse (long paths, many unreachable pairs) to dense (short paths with many
// alternatives), each checked against a plain breadth-first search in JavaScript.
const GRAPHS = [
  { nodes: 80, edges: 120, seed: 1 },
  { nodes: 80, edges: 200, seed: 2 },
  { nodes: 200, edges: 1600, seed: 3 },
];
const PAIRS_PER_GRAPH = 200;
const MAX_DEPTH_LIMIT = 16;

for (const spec of GRAPHS) {
  const title = `mysql graph operations on a random graph of ${spec.nodes} nodes and ${spec.edges} relations`;
  describe(title, { skip }, () => {
    const namespace = `${NAMESPACE}_random${spec.seed}`;
    const graph = randomGraph(spec, mulberry32);
    let db;

    before(async () => {
      db = mysql.create({ ...options, namespace });
      await db.connect();
      await db.resetNamespace();
      await db.writeMarker({ dataset: `random-${spec.seed}` });
      await db.importProfiles(Array.from({ length: spec.nodes }, (_, i) => ({ _key: `P${i + 1}`, AGE: i % 7 })));
      await db.importRelations(graph.relations);
      await db.createIndexes();
    });

    after(async () => {
      await db?.close();
      await dropNamespace(namespace);
    });

    // All pairs at once: concurrent searches run on separate connections with their own TEMPORARY tables.
    test('concurrent shortestPath searches are minimal, follow relations, and respect maxDepth', async () => {
      const cases = pathCases(graph, PAIRS_PER_GRAPH, MAX_DEPTH_LIMIT);
      assertPathCases(cases, await searchPaths(db, cases, cases.length), graph.out);
    });

    test('neighbors and neighbors2 match the adjacency lists', async () => {
      await assertNeighbourSets(db, graph);
    });
  });
}

describe('mysql description', () => {
  test('declares the contract fields', () => {
    assert.equal(mysql.id, 'mysql');
    assert.equal(mysql.kind, 'server');
    assert.equal(mysql.driver, 'mysql2');
    assert.equal(mysql.execution, 'parallel');
    assert.equal(mysql.server, 'mariadb');
    const { spread, ...connection } = mysql.connection;
    assert.deepStrictEqual(connection, {
      defaults: { host: '127.0.0.1', port: 3306, user: 'root', database: null },
      passwordEnv: 'BENCH_MYSQL_PASSWORD',
    });
    // It spreads its connections over a cluster's nodes (spread.js), and says how.
    assert.match(spread, /connection j to endpoint j mod n/);
    assert.deepStrictEqual(mysql.supports.slice(0, 14), [
      'singleRead', 'singleWrite', 'singleWriteSync', 'aggregation',
      'neighbors', 'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath',
      'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', 'scanDocuments',
    ]);
    // Every query case and every graph operation, in any order.
    assert.deepStrictEqual([...mysql.supports.slice(14)].sort(), [...CASE_NAMES, ...GRAPH_OPERATIONS].sort());
    assert.deepStrictEqual(Object.keys(mysql.durability), ['singleWrite', 'singleWriteSync']);
    assert.equal(typeof mysql.testSupport.plantForeign, 'function');
  });
});
