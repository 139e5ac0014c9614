// Every operation of both PostgreSQL adapters against hand-computed answers: documents whose text needs every
// COPY escape, a hand-made graph, both write modes. Runs against the local server of `bench server start
// postgresql`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import postgresql from '../../adapters/postgresql/description.js';
import postgresqlTabular from '../../adapters/postgresql_tabular/description.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_pgtest_ops';

const base = {
  public: 1, completion_percentage: 38, gender: 1, region: 'zilinsky kraj, zilina',
  last_login: '2012-05-25 11:20:00.0', registration: '2010-03-04 18:12:00.0',
};

// P1..P8. Text with every character COPY's text format escapes, the literal text of its NULL marker and of
// its end-of-data marker, JSON-looking text, non-BMP characters, and a value long enough to be TOASTed.
// P5 has no AGE (the histogram counts it under "null"), P6 only a key and AGE.
const PROFILES = [
  { ...base, _key: 'P1', AGE: 26, hobbies: 'tab\there, new\nline, back\\slash, carriage\rreturn', pets: '\\N' },
  { ...base, _key: 'P2', AGE: 0, gender: 0, more: '\\.', I_like_books: '{"title": "Harry \\"Potter\\""}' },
  { ...base, _key: 'P3', AGE: 18, music: 'ľudová hudba ☺ 𝄞 <b>rock</b>', fun: '', children: 'null' },
  { ...base, _key: 'P4', AGE: 0, public: 0, completion_percentage: 0, education: 'x'.repeat(20000) },
  { ...base, _key: 'P5', region: 'trnavsky kraj, galanta', body: ' leading and trailing spaces ' },
  { _key: 'P6', AGE: 41 },
  { ...base, _key: 'P7', AGE: 18, gender: 0 },
  { ...base, _key: 'P8', AGE: 26, more: '\u0001\u001f control characters' },
];

// P1 <-> P2 reciprocal; P1 -> P2 listed twice; P1 -> P3 -> P4 and P1 -> P2 -> P4 two equally short routes;
// P4 -> P5 -> P6 -> P4 a cycle; P6 -> P6 a self-loop; P7 has no incoming relation, P8 no outgoing one.
const RELATIONS = [
  ['P1', 'P2'], ['P2', 'P1'], ['P1', 'P2'], ['P1', 'P3'], ['P2', 'P4'], ['P3', 'P4'], ['P4', 'P5'],
  ['P5', 'P6'], ['P6', 'P4'], ['P6', 'P6'], ['P6', 'P8'], ['P7', 'P1'],
].map(([_from, _to]) => ({ _from, _to }));

const NEIGHBORS = { P1: ['P2', 'P3'], P4: ['P5'], P6: ['P4', 'P6', 'P8'], P7: ['P1'], P8: [] };
const NEIGHBORS2 = {
  P1: ['P2', 'P3', 'P4'], P4: ['P5', 'P6'], P6: ['P4', 'P5', 'P8'], P7: ['P1', 'P2', 'P3'], P8: [],
};
const AGES = { 0: 2, 18: 2, 26: 2, 41: 1, null: 1 };
// [from, to, maxDepth, hops or null]
const PATHS = [
  ['P1', 'P4', 15, 2], ['P7', 'P8', 15, 6], ['P7', 'P8', 6, 6], ['P7', 'P8', 5, null], ['P6', 'P6', 15, 0],
  ['P8', 'P1', 15, null], ['P1', 'P7', 15, null], ['P5', 'P4', 15, 2], ['P1', 'P2', 1, 1], ['P1', 'P2', 0, null],
  ['P1', 'P99', 15, null], ['P99', 'P1', 15, null],
];

const byKey = new Map(PROFILES.map((doc) => [doc._key, doc]));
const edges = new Set(RELATIONS.map(({ _from, _to }) => `${_from} ${_to}`));
const sorted = (keys) => [...keys].sort();

for (const description of [postgresql, postgresqlTabular]) {
  const { options, skip } = serverTarget(description, { namespace: NAMESPACE });

  describe(`${description.id} operations`, { skip }, () => {
    let db;

    before(async () => {
      db = description.create(options);
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
      await description.testSupport.dropNamespace(options);
    });

    test('counts every profile and every relation, duplicates included', async () => {
      assert.deepEqual(await db.counts(), { profiles: PROFILES.length, relations: RELATIONS.length });
      await db.warmup();
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

    test('concurrent path searches on every connection do not disturb each other', async () => {
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
        await assert.rejects(db[write](collection, documents[0]), /duplicate key/);
        await db[write](collection, { AGE: 3 });
        assert.equal(await db.countDocuments(collection), documents.length + 1, 'a document without _key is stored');
        await db.dropTempCollection(collection);
        assert.deepEqual(await db.counts(), { profiles: PROFILES.length, relations: RELATIONS.length });
      });
    }

    test('each write mode sets synchronous_commit on the connection it writes on', async () => {
      // One connection: settings() runs on the same session as the write before it.
      const single = description.create({ ...options, concurrency: 1 });
      await single.connect();
      try {
        await single.createTempCollection('modes');
        await single.singleWriteSync('modes', { _key: 'W1' });
        assert.equal((await single.settings()).synchronous_commit, 'on');
        await single.singleWrite('modes', { _key: 'W2' });
        assert.equal((await single.settings()).synchronous_commit, 'off');
        await single.singleWriteSync('modes', { _key: 'W3' });
        assert.equal((await single.settings()).synchronous_commit, 'on');
        await single.dropTempCollection('modes');
      } finally {
        await single.close();
      }
    });
  });
}

const columns = serverTarget(postgresqlTabular, { namespace: `${NAMESPACE}_columns` });

describe('postgresql_tabular columns', { skip: columns.skip }, () => {
  const { options } = columns;
  let db;
  let admin;

  before(async () => {
    db = postgresqlTabular.create(options);
    await db.connect();
    await db.resetNamespace();
    admin = new pg.Client({ host: options.host, port: options.port, user: options.user, database: options.database });
    await admin.connect();
  });

  after(async () => {
    await db?.close();
    await admin?.end();
    await postgresqlTabular.testSupport.dropNamespace(options);
  });

  test('one typed column per Pokec column, named as in the file', async () => {
    const { rows } = await admin.query(`
      SELECT column_name, data_type FROM information_schema.columns
      WHERE table_schema = $1 AND table_name = 'profiles' ORDER BY ordinal_position`, [`${options.namespace}_tabular`]);
    assert.equal(rows.length, 59);
    assert.deepEqual(rows[0], { column_name: '_key', data_type: 'text' });
    const types = Object.fromEntries(rows.map(({ column_name: name, data_type: type }) => [name, type]));
    for (const name of ['public', 'completion_percentage', 'gender', 'AGE']) assert.equal(types[name], 'integer', name);
    assert.equal(types.I_am_working_in_field, 'text');
    assert.equal(types.user_id, undefined);
  });

  test('a field without a column is an error, never dropped silently', async () => {
    await assert.rejects(db.importProfiles([{ _key: 'P1', AGE: 3, nickname: 'x' }]),
      /"nickname" .* is not a Pokec column/);
    await db.createTempCollection('extra');
    await assert.rejects(db.singleWrite('extra', { _key: 'W1', nickname: 'x' }), /"nickname"/);
    assert.deepEqual(await db.counts(), { profiles: 0, relations: 0 });
    assert.equal(await db.countDocuments('extra'), 0);
  });
});
