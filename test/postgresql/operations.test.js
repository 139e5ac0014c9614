// Every operation of both PostgreSQL adapters against hand-computed answers: documents whose text needs every
// COPY escape, a hand-made graph, both write modes. Runs against the local server of `bench server start
// postgresql`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import postgresql from '../../adapters/postgresql/description.js';
import postgresqlTabular from '../../adapters/postgresql_tabular/description.js';
import {
  NEIGHBORS, NEIGHBORS2, PATHS, RELATIONS, graphOperationTests, graphProfiles, importGraph,
} from '../helpers/fixture-graph.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_pgtest_ops';

// Text with every character COPY's text format escapes, the literal text of its NULL marker and of its
// end-of-data marker, JSON-looking text, non-BMP characters, and a value long enough to be TOASTed.
const PROFILES = graphProfiles({
  P1: { hobbies: 'tab\there, new\nline, back\\slash, carriage\rreturn', pets: '\\N' },
  P2: { more: '\\.', I_like_books: '{"title": "Harry \\"Potter\\""}' },
  P3: { music: 'ľudová hudba ☺ 𝄞 <b>rock</b>', fun: '', children: 'null' },
  P4: { education: 'x'.repeat(20000) },
  P5: { body: ' leading and trailing spaces ' },
  P8: { more: '\u0001\u001f control characters' },
});

for (const description of [postgresql, postgresqlTabular]) {
  const { options, skip } = serverTarget(description, { namespace: NAMESPACE });

  describe(`${description.id} operations`, { skip }, () => {
    let db;

    before(async () => {
      db = description.create(options);
      await db.connect();
      await importGraph(db, PROFILES);
    });

    after(async () => {
      await db?.close();
      await description.testSupport.dropNamespace(options);
    });

    graphOperationTests(() => db, {
      profiles: PROFILES, neighbors: NEIGHBORS, neighbors2: NEIGHBORS2, paths: PATHS,
      concurrentTitle: 'concurrent path searches on every connection do not disturb each other',
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
