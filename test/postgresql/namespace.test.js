// The namespace is one schema per adapter: created, recognised and reset by the adapter; anything else, inside
// or outside it, is never dropped. Runs against the local server of `bench server start postgresql`.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import pg from 'pg';
import postgresql from '../../adapters/postgresql/description.js';
import postgresqlTabular from '../../adapters/postgresql_tabular/description.js';
import { ErrorCodes } from '../../core/errors.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_pgtest_ns';
// A schema of someone else's, outside every namespace of this file.
const OTHER = 'dbshootout_pgtest_other';
const { options, skip } = serverTarget(postgresql, { namespace: NAMESPACE });

describe('postgresql namespace', { skip }, () => {
  let admin;
  let adapters = [];

  async function open(description = postgresql, namespace = NAMESPACE) {
    const adapter = description.create({ ...options, namespace, concurrency: 2 });
    adapters.push(adapter);
    await adapter.connect();
    return adapter;
  }

  async function names(sql, values) {
    return (await admin.query({ text: sql, values, rowMode: 'array' })).rows.map(([name]) => name);
  }

  const tablesOf = (schema) => names(
    "SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename", [schema]);
  const schemaExists = async (schema) =>
    (await names('SELECT nspname FROM pg_namespace WHERE nspname = $1', [schema])).length === 1;

  async function dropAll() {
    for (const schema of [NAMESPACE, `${NAMESPACE}_tabular`, OTHER]) {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  }

  before(async () => {
    admin = new pg.Client({ host: options.host, port: options.port, user: options.user, database: options.database });
    await admin.connect();
    await dropAll();
  });

  afterEach(async () => {
    for (const adapter of adapters) await adapter.close();
    adapters = [];
    await dropAll();
  });

  after(async () => {
    await admin.end();
  });

  test('goes from absent to owned through resetNamespace and writeMarker', async () => {
    const db = await open();
    assert.deepEqual(await db.inspectNamespace(), { state: 'absent', marker: null });
    await db.resetNamespace();
    assert.deepEqual(await db.inspectNamespace(), { state: 'owned', marker: {} });
    await db.writeMarker({ dataset: 'tiny', imported: true });
    assert.deepEqual(await db.inspectNamespace(), { state: 'owned', marker: { dataset: 'tiny', imported: true } });
    await db.writeMarker({ dataset: 'small' });
    assert.deepEqual(await db.inspectNamespace(), { state: 'owned', marker: { dataset: 'small' } });
    assert.deepEqual(await tablesOf(NAMESPACE), ['marker', 'profiles', 'relations']);
    assert.deepEqual(await names(`SELECT proname FROM pg_proc WHERE pronamespace = '"${NAMESPACE}"'::regnamespace`),
      ['shortest_path']);
  });

  test('the two adapters keep separate schemas of one namespace', async () => {
    const document = await open(postgresql);
    const tabular = await open(postgresqlTabular);
    await document.resetNamespace();
    await document.writeMarker({ model: 'document' });
    assert.equal((await tabular.inspectNamespace()).state, 'absent');
    await tabular.resetNamespace();
    await tabular.writeMarker({ model: 'tabular' });
    assert.deepEqual(await document.inspectNamespace(), { state: 'owned', marker: { model: 'document' } });
    assert.deepEqual(await tabular.inspectNamespace(), { state: 'owned', marker: { model: 'tabular' } });
    assert.deepEqual(await tablesOf(`${NAMESPACE}_tabular`), ['marker', 'profiles', 'relations']);
  });

  test('resetNamespace empties an owned namespace and drops its temporary collections and indexes', async () => {
    const db = await open();
    await db.resetNamespace();
    await db.writeMarker({ dataset: 'tiny' });
    await db.importProfiles([{ _key: 'P1', AGE: 20 }]);
    await db.importRelations([{ _from: 'P1', _to: 'P1' }]);
    await db.createIndexes();
    await db.createTempCollection('writes');
    assert.deepEqual(await tablesOf(NAMESPACE), ['marker', 'profiles', 'relations', 'tmp_writes']);
    await db.resetNamespace();
    assert.deepEqual(await db.counts(), { profiles: 0, relations: 0 });
    assert.deepEqual(await db.inspectNamespace(), { state: 'owned', marker: {} });
    assert.deepEqual(await tablesOf(NAMESPACE), ['marker', 'profiles', 'relations']);
    assert.deepEqual(await names(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 ORDER BY 1`, [NAMESPACE]),
      ['marker_pkey']);
  });

  test('a schema without a marker is foreign, and reset leaves it and its data intact', async () => {
    await admin.query(`
      CREATE SCHEMA ${NAMESPACE};
      CREATE TABLE ${NAMESPACE}.profiles (id int);
      INSERT INTO ${NAMESPACE}.profiles VALUES (7);
    `);
    const db = await open();
    assert.deepEqual(await db.inspectNamespace(), { state: 'foreign', marker: null });
    await assert.rejects(db.resetNamespace(), { code: ErrorCodes.NAMESPACE_FOREIGN, message: /holds profiles/ });
    assert.deepEqual((await admin.query(`SELECT id FROM ${NAMESPACE}.profiles`)).rows, [{ id: 7 }]);
  });

  test('an empty schema, or a marker table without a marker object, is foreign', async () => {
    await admin.query(`CREATE SCHEMA ${NAMESPACE}`);
    const db = await open();
    assert.equal((await db.inspectNamespace()).state, 'foreign');
    await admin.query(`CREATE TABLE ${NAMESPACE}.marker (id integer PRIMARY KEY, marker jsonb NOT NULL)`);
    assert.equal((await db.inspectNamespace()).state, 'foreign', 'an empty marker table');
    await admin.query(`INSERT INTO ${NAMESPACE}.marker VALUES (1, '[1, 2]')`);
    assert.equal((await db.inspectNamespace()).state, 'foreign', 'a marker that is not an object');
    await admin.query(`
      DROP TABLE ${NAMESPACE}.marker;
      CREATE VIEW ${NAMESPACE}.marker AS SELECT 1 AS id, '{}'::jsonb AS marker;
    `);
    assert.equal((await db.inspectNamespace()).state, 'foreign', 'a view called marker');
    await assert.rejects(db.resetNamespace(), { code: ErrorCodes.NAMESPACE_FOREIGN });
    assert.ok(await schemaExists(NAMESPACE));
  });

  test('an object outside the namespace that depends on it stops the reset, and both survive', async () => {
    const db = await open();
    await db.resetNamespace();
    await db.importProfiles([{ _key: 'P1', AGE: 20 }]);
    await admin.query(`
      CREATE SCHEMA ${OTHER};
      CREATE VIEW ${OTHER}.ages AS SELECT doc ->> 'AGE' AS age FROM ${NAMESPACE}.profiles;
    `);
    await assert.rejects(db.resetNamespace(), { code: ErrorCodes.NAMESPACE_FOREIGN, message: /ages/ });
    assert.deepEqual((await admin.query(`SELECT age FROM ${OTHER}.ages`)).rows, [{ age: '20' }]);
    assert.deepEqual(await db.counts(), { profiles: 1, relations: 0 }, 'the rolled-back reset kept the data');
  });

  test('an object someone added inside an owned namespace stops the reset, and survives', async () => {
    const db = await open();
    await db.resetNamespace();
    await admin.query(`CREATE TABLE ${NAMESPACE}.notes (note text); INSERT INTO ${NAMESPACE}.notes VALUES ('mine')`);
    await assert.rejects(db.resetNamespace(), { code: ErrorCodes.NAMESPACE_FOREIGN, message: /notes/ });
    assert.deepEqual((await admin.query(`SELECT note FROM ${NAMESPACE}.notes`)).rows, [{ note: 'mine' }]);
    assert.deepEqual(await db.inspectNamespace(), { state: 'owned', marker: {} });
  });

  test('tables outside the namespace survive its reset, even those with the same names', async () => {
    await admin.query(`
      CREATE SCHEMA ${OTHER};
      CREATE TABLE ${OTHER}.profiles (id int);
      CREATE TABLE ${OTHER}.tmp_writes (id int);
    `);
    const db = await open();
    await db.resetNamespace();
    await db.createTempCollection('writes');
    await db.resetNamespace();
    assert.deepEqual(await tablesOf(OTHER), ['profiles', 'tmp_writes']);
  });

  test('names that are not identifiers, or would share a schema, are rejected before any SQL', async () => {
    for (const namespace of ['bad-name', 'x"; DROP SCHEMA public; --', '1abc', 'pg_mine', 'a'.repeat(64)]) {
      assert.throws(() => postgresql.create({ ...options, namespace }), { code: ErrorCodes.USAGE }, namespace);
    }
    assert.throws(() => postgresql.create({ ...options, namespace: 'bench_tabular' }),
      { code: ErrorCodes.USAGE, message: /_tabular/ });
    assert.doesNotThrow(() => postgresqlTabular.create({ ...options, namespace: 'bench_tabular' }));
    const db = await open();
    await db.resetNamespace();
    await assert.rejects(db.createTempCollection('no spaces'), { code: ErrorCodes.USAGE });
  });
});
