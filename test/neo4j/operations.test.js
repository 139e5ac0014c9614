// Every operation of the neo4j adapter against hand-computed answers: documents with text Cypher would choke on
// if it were ever spliced into a query, integers that must stay integers, a hand-made graph with duplicate
// relations, a self-loop and relations of one profile listed apart, both write modes. Runs against the local
// server of `bench server start neo4j` (or BENCH_NEO4J_URL).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createDriver } from '../../adapters/neo4j/connection.js';
import neo4j from '../../adapters/neo4j/description.js';
import { serverTarget } from '../helpers/servers.js';

const { options, skip } = serverTarget(neo4j, { namespace: 'dbshootout_neo4jtest_ops' });

const base = {
  public: 1, completion_percentage: 38, gender: 1, region: 'zilinsky kraj, zilina',
  last_login: '2012-05-25 11:20:00.0', registration: '2010-03-04 18:12:00.0',
};

// P1..P8. Quotes, backticks, braces and parameter-looking text; non-BMP characters, control characters, an
// empty string and the text "null"; a long value; integers at the edges of exactness.
// P5 has no AGE (the histogram counts it under "null"), P6 only a key and AGE.
const PROFILES = [
  { ...base, _key: 'P1', AGE: 26, hobbies: "it's \"quoted\", `back`ticked`, {braces} and $key", pets: '\\N' },
  { ...base, _key: 'P2', AGE: 0, gender: 0, more: "'}) DETACH DELETE n //", I_like_books: '{"title": "x"}' },
  { ...base, _key: 'P3', AGE: 18, music: 'ľudová hudba ☺ 𝄞 <b>rock</b>', fun: '', children: 'null' },
  { ...base, _key: 'P4', AGE: 0, public: 0, completion_percentage: 0, education: 'x'.repeat(20000) },
  { ...base, _key: 'P5', region: 'trnavsky kraj, galanta', body: ' leading and trailing spaces ' },
  { _key: 'P6', AGE: 41 },
  { ...base, _key: 'P7', AGE: 18, gender: 0, completion_percentage: Number.MAX_SAFE_INTEGER },
  { ...base, _key: 'P8', AGE: 26, public: -2147483649, more: '\u0001\u001f control characters\ttab\nnewline' },
];

// P1 <-> P2 reciprocal; P1 -> P2 listed twice, and P1's relations listed apart from each other; P1 -> P3 -> P4
// and P1 -> P2 -> P4 two equally short routes; P4 -> P5 -> P6 -> P4 a cycle; P6 -> P6 a self-loop; P7 has no
// incoming relation, P8 no outgoing one.
const RELATIONS = [
  ['P1', 'P2'], ['P2', 'P1'], ['P1', 'P2'], ['P1', 'P3'], ['P2', 'P4'], ['P3', 'P4'], ['P4', 'P5'],
  ['P5', 'P6'], ['P6', 'P4'], ['P6', 'P6'], ['P6', 'P8'], ['P7', 'P1'],
].map(([_from, _to]) => ({ _from, _to }));

const NEIGHBORS = { P1: ['P2', 'P3'], P4: ['P5'], P6: ['P4', 'P6', 'P8'], P7: ['P1'], P8: [], P99: [] };
const NEIGHBORS2 = {
  P1: ['P2', 'P3', 'P4'], P4: ['P5', 'P6'], P6: ['P4', 'P5', 'P8'], P7: ['P1', 'P2', 'P3'], P8: [], P99: [],
};
const AGES = { 0: 2, 18: 2, 26: 2, 41: 1, null: 1 };
// [from, to, maxDepth, hops or null]
const PATHS = [
  ['P1', 'P4', 15, 2], ['P7', 'P8', 15, 6], ['P7', 'P8', 6, 6], ['P7', 'P8', 5, null], ['P6', 'P6', 15, 0],
  ['P8', 'P1', 15, null], ['P1', 'P7', 15, null], ['P5', 'P4', 15, 2], ['P1', 'P2', 1, 1], ['P1', 'P2', 0, null],
  ['P1', 'P99', 15, null], ['P99', 'P1', 15, null], ['P6', 'P8', 40, 1],
];

const byKey = new Map(PROFILES.map((doc) => [doc._key, doc]));
const edges = new Set(RELATIONS.map(({ _from, _to }) => `${_from} ${_to}`));
const sorted = (keys) => [...keys].sort();

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
    await db.resetNamespace();
    await db.importProfiles(PROFILES.slice(0, 3));
    await db.importProfiles(PROFILES.slice(3));
    await db.importRelations(RELATIONS.slice(0, 4));
    await db.importRelations(RELATIONS.slice(4));
    await db.createIndexes();
  });

  after(async () => {
    await db?.close();
    await neo4j.testSupport.dropNamespace(options);
    await admin?.close();
  });

  test('counts every profile and every relation, duplicates included', async () => {
    assert.deepEqual(await db.counts(), { profiles: PROFILES.length, relations: RELATIONS.length });
    await db.warmup();
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

  test('singleRead returns each document exactly as imported, and null for a missing key', async () => {
    for (const doc of PROFILES) assert.deepStrictEqual(await db.singleRead(doc._key), doc);
    assert.equal(await db.singleRead('P99'), null);
    assert.equal(await db.singleRead("P1' OR '1'='1"), null);
  });

  test('aggregation counts every AGE, a missing one under "null"', async () => {
    assert.deepStrictEqual(await db.aggregation(), AGES);
  });

  test('neighbors and neighbors2 return each key once', async () => {
    for (const [key, expected] of Object.entries(NEIGHBORS)) {
      assert.deepEqual(sorted(await db.neighbors(key)), expected, key);
    }
    for (const [key, expected] of Object.entries(NEIGHBORS2)) {
      assert.deepEqual(sorted(await db.neighbors2(key)), expected, key);
    }
  });

  test('neighborsData and neighbors2data return the same sets as exact documents', async () => {
    for (const [operation, reference] of [['neighborsData', NEIGHBORS], ['neighbors2data', NEIGHBORS2]]) {
      for (const [key, expected] of Object.entries(reference)) {
        const documents = await db[operation](key);
        assert.deepEqual(sorted(documents.map((doc) => doc._key)), expected, `${operation}(${key})`);
        for (const doc of documents) assert.deepStrictEqual(doc, byKey.get(doc._key));
      }
    }
  });

  test('shortestPath is minimal, follows relations and honours maxDepth', async () => {
    for (const [from, to, maxDepth, hops] of PATHS) {
      const path = await db.shortestPath(from, to, maxDepth);
      const call = `shortestPath(${from}, ${to}, ${maxDepth})`;
      if (hops === null) {
        assert.equal(path, null, call);
        continue;
      }
      assert.equal(path.length - 1, hops, `${call}: ${JSON.stringify(path)}`);
      assert.equal(path[0], from);
      assert.equal(path.at(-1), to);
      for (let i = 1; i < path.length; i += 1) assert.ok(edges.has(`${path[i - 1]} ${path[i]}`), `${call}: ${path}`);
    }
  });

  test('shortestPath rejects a depth that is not a non-negative integer', async () => {
    for (const maxDepth of [-1, 1.5, '15', Number.NaN]) {
      await assert.rejects(db.shortestPath('P1', 'P4', maxDepth), { code: 'E_USAGE' }, String(maxDepth));
    }
  });

  test('concurrent operations on every connection do not disturb each other', async () => {
    const calls = Array.from({ length: 100 }, (_, i) => PATHS[i % PATHS.length]);
    const answers = await Promise.all(calls.map(([from, to, maxDepth]) => db.shortestPath(from, to, maxDepth)));
    answers.forEach((path, i) => assert.equal(path === null ? null : path.length - 1, calls[i][3], String(calls[i])));
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
