// Every operation of the neo4j adapter against hand-computed answers: documents with text Cypher would choke on
// if it were ever spliced into a query, integers that must stay integers, a hand-made graph with duplicate
// relations, a self-loop and relations of one profile listed apart, both write modes. Runs against the local
// server of `bench server start neo4j` (or BENCH_NEO4J_URL).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createDriver } from '../../adapters/neo4j/connection.js';
import neo4j from '../../adapters/neo4j/description.js';
import {
  NEIGHBORS as GRAPH_NEIGHBORS, NEIGHBORS2 as GRAPH_NEIGHBORS2, PATHS as GRAPH_PATHS, RELATIONS, graphOperationTests,
  graphProfiles, importGraph, sorted,
} from '../helpers/fixture-graph.js';
import { serverTarget } from '../helpers/servers.js';

const { options, skip } = serverTarget(neo4j, { namespace: 'dbshootout_neo4jtest_ops' });

// Quotes, backticks, braces and parameter-looking text; non-BMP characters, control characters, an empty string
// and the text "null"; a long value; integers at the edges of exactness.
const PROFILES = graphProfiles({
  P1: { hobbies: "it's \"quoted\", `back`ticked`, {braces} and $key", pets: '\\N' },
  P2: { more: "'}) DETACH DELETE n //", I_like_books: '{"title": "x"}' },
  P3: { music: 'ľudová hudba ☺ 𝄞 <b>rock</b>', fun: '', children: 'null' },
  P4: { education: 'x'.repeat(20000) },
  P5: { body: ' leading and trailing spaces ' },
  P7: { completion_percentage: Number.MAX_SAFE_INTEGER },
  P8: { public: -2147483649, more: '\u0001\u001f control characters\ttab\nnewline' },
});

// RELATIONS lists P1's relations apart from each other (P2 -> P1 stands between them). A key that names no
// profile has no neighbours either, and a maxDepth far beyond the graph is harmless.
const NEIGHBORS = { ...GRAPH_NEIGHBORS, P99: [] };
const NEIGHBORS2 = { ...GRAPH_NEIGHBORS2, P99: [] };
const PATHS = [...GRAPH_PATHS, ['P6', 'P8', 40, 1]];
const byKey = new Map(PROFILES.map((doc) => [doc._key, doc]));

describe('neo4j operations', { skip }, () => {
  let db;
  let admin;

  // The test's own driver, to look at what the adapter stored.
  async function query(text, params) {
    const session = admin.session({ database: options.database });
    try {
      return (await session.run(text, params)).records;
    } finally {
      await session.close();
    }
  }

  before(async () => {
    admin = createDriver({ ...options, concurrency: 1 });
    db = neo4j.create(options);
    await db.connect();
    await importGraph(db, PROFILES);
  });

  after(async () => {
    await db?.close();
    await neo4j.testSupport.dropNamespace(options);
    await admin?.close();
  });

  graphOperationTests(() => db, {
    profiles: PROFILES, neighbors: NEIGHBORS, neighbors2: NEIGHBORS2, paths: PATHS,
    concurrentTitle: 'concurrent operations on every connection do not disturb each other',
  });

  test('profiles are nodes holding exactly the document\'s fields, integers as integers', async () => {
    const records = await query(`MATCH (p:${options.namespace}_Profile) RETURN p._key AS key,
      [k IN keys(p) | [k, valueType(p[k])]] AS types, labels(p) AS labels`);
    assert.equal(records.length, PROFILES.length);
    for (const record of records) {
      const doc = byKey.get(record.get('key'));
      assert.deepEqual(record.get('labels'), [`${options.namespace}_Profile`]);
      const types = Object.fromEntries(record.get('types'));
      assert.deepEqual(sorted(Object.keys(types)), sorted(Object.keys(doc)), doc._key);
      for (const [field, value] of Object.entries(doc)) {
        const type = Number.isInteger(value) ? 'INTEGER NOT NULL' : 'STRING NOT NULL';
        assert.equal(types[field], type, `${doc._key}.${field}`);
      }
    }
    const [constraint] = await query('SHOW CONSTRAINTS YIELD name, labelsOrTypes, properties, type WHERE name = $name '
      + 'RETURN labelsOrTypes, properties, type', { name: `${options.namespace}_profile_key` });
    assert.deepEqual(constraint.toObject(),
      { labelsOrTypes: [`${options.namespace}_Profile`], properties: ['_key'], type: 'UNIQUENESS' });
  });

  test('shortestPath rejects a depth that is not a non-negative integer', async () => {
    for (const maxDepth of [-1, 1.5, '15', Number.NaN]) {
      await assert.rejects(db.shortestPath('P1', 'P4', maxDepth), { code: 'E_USAGE' }, String(maxDepth));
    }
  });

  for (const write of ['singleWrite', 'singleWriteSync']) {
    test(`${write} stores documents exactly, one per key`, async () => {
      const collection = `ops_${write}`;
      await db.createTempCollection(collection);
      const documents = PROFILES.map((doc, i) => ({ ...doc, _key: `W${i + 1}` }));
      await Promise.all(documents.map((doc) => db[write](collection, doc)));
      assert.equal(await db.countDocuments(collection), documents.length);
      for (const doc of documents) assert.deepStrictEqual(await db.readDocument(collection, doc._key), doc);
      const [ages] = await query(
        `MATCH (d:${options.namespace}_tmp_${collection}) RETURN collect(DISTINCT valueType(d.AGE))`);
      assert.deepEqual(sorted(ages.get(0)), ['INTEGER NOT NULL', 'NULL']);
      await assert.rejects(db[write](collection, documents[0]), /already exists/);
      await db[write](collection, { AGE: 3 });
      assert.equal(await db.countDocuments(collection), documents.length + 1, 'a document without _key is stored');
      await db.createTempCollection(collection);
      assert.equal(await db.countDocuments(collection), 0, 'createTempCollection starts empty');
      await db.dropTempCollection(collection);
      const [left] = await query('SHOW CONSTRAINTS YIELD name WHERE name STARTS WITH $prefix RETURN count(*)',
        { prefix: `${options.namespace}_tmp_` });
      assert.equal(left.get(0), 0, 'dropTempCollection dropped its key constraint');
      assert.deepEqual(await db.counts(), { profiles: PROFILES.length, relations: RELATIONS.length });
    });
  }

  test('reports the server version and the settings that affect results', async () => {
    assert.match(await db.serverVersion(), /^\d+\.\d+\.\d+/);
    const settings = await db.settings();
    assert.equal(typeof settings['server.memory.pagecache.size'], 'string');
    assert.ok(Number.isInteger(settings['jvm.heap.max_bytes']) && settings['jvm.heap.max_bytes'] > 0);
    for (const value of Object.values(settings)) {
      assert.ok(value === null || ['string', 'number'].includes(typeof value));
    }
  });
});
