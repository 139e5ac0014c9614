// The namespace is one database: created, recognised and reset by the adapter; another database, or a class
// someone added to ours, is never dropped. Runs against the local server of `bench server start orientdb`.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import orientjs from 'orientjs';
import { credentials } from '../../adapters/orientdb/connection.js';
import orientdb from '../../adapters/orientdb/description.js';
import { ErrorCodes } from '../../core/errors.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_orienttest_ns';
// Someone else's database, outside every namespace of this file.
const OTHER = 'dbshootout_orienttest_other';
const { options, skip } = serverTarget(orientdb, { namespace: NAMESPACE });

describe('orientdb namespace', { skip }, () => {
  let client;
  let adapters = [];
  const login = () => credentials(options);

  async function open(namespace = NAMESPACE) {
    const adapter = orientdb.create({ ...options, namespace, concurrency: 2 });
    adapters.push(adapter);
    await adapter.connect();
    return adapter;
  }

  async function inDatabase(name, work) {
    const session = await client.session({ name, ...login(), pushNotification: false });
    try {
      return await work(session);
    } finally {
      await session.close();
    }
  }

  const exists = (name) => client.existsDatabase({ ...login(), name, storage: 'plocal' });

  async function dropAll() {
    for (const name of [NAMESPACE, OTHER]) {
      if (await exists(name)) await client.dropDatabase({ ...login(), name, storage: 'plocal' });
    }
  }

  before(async () => {
    client = await orientjs.OrientDBClient.connect({
      host: options.host, port: options.port, logger: { debug() {}, log() {}, error() {} },
    });
    await dropAll();
  });

  afterEach(async () => {
    for (const adapter of adapters) await adapter.close();
    adapters = [];
    await dropAll();
  });

  after(() => client?.close());

  test('goes from absent to owned through resetNamespace and writeMarker', async () => {
    const db = await open();
    assert.deepEqual(await db.inspectNamespace(), { state: 'absent', marker: null });
    assert.equal(await exists(NAMESPACE), false, 'inspecting creates nothing');
    await db.resetNamespace();
    assert.deepEqual(await db.inspectNamespace(), { state: 'owned', marker: {} });
    await db.writeMarker({ dataset: 'x', imported: true, nested: { list: [1, 2.5, 'é'] } });
    const again = await open();
    assert.deepEqual(await again.inspectNamespace(),
      { state: 'owned', marker: { dataset: 'x', imported: true, nested: { list: [1, 2.5, 'é'] } } });
  });

  test('a reset drops everything of ours and starts empty', async () => {
    const db = await open();
    await db.resetNamespace();
    await db.importProfiles([{ _key: 'P1', AGE: 3 }, { _key: 'P2', AGE: 4 }]);
    await db.importRelations([{ _from: 'P1', _to: 'P2' }]);
    await db.createIndexes();
    await db.createTempCollection('leftover');
    await db.singleWrite('leftover', { _key: 'W1' });
    await db.writeMarker({ dataset: 'x' });
    await db.resetNamespace();
    assert.deepEqual(await db.counts(), { profiles: 0, relations: 0 });
    assert.deepEqual(await db.inspectNamespace(), { state: 'owned', marker: {} });
    const classes = await inDatabase(NAMESPACE, (session) => session.query(
      'SELECT name FROM (SELECT expand(classes) FROM metadata:schema)').all());
    assert.ok(!classes.some(({ name }) => name === 'Tmp_leftover'), 'the temporary collection is gone');
  });

  test('a database without a marker is foreign, refused and left intact', async () => {
    await client.createDatabase({ ...login(), name: NAMESPACE, type: 'graph', storage: 'plocal' });
    await inDatabase(NAMESPACE, (session) => session.command("INSERT INTO V SET owner = 'someone else'").all());
    const db = await open();
    assert.deepEqual(await db.inspectNamespace(), { state: 'foreign', marker: null });
    await assert.rejects(db.resetNamespace(), (error) => error.code === ErrorCodes.NAMESPACE_FOREIGN
      && /database "dbshootout_orienttest_ns" exists but has no db-shootout marker/.test(error.message));
    const rows = await inDatabase(NAMESPACE, (session) => session.query('SELECT owner FROM V').all());
    assert.deepEqual(rows, [{ owner: 'someone else' }]);
  });

  test('a class someone added to our database makes it foreign, and nothing is dropped', async () => {
    const db = await open();
    await db.resetNamespace();
    await inDatabase(NAMESPACE, async (session) => {
      await session.command('CREATE CLASS Notes').all();
      await session.command("INSERT INTO Notes SET text = 'mine'").all();
    });
    assert.equal((await db.inspectNamespace()).state, 'foreign');
    await assert.rejects(db.resetNamespace(), (error) => error.code === ErrorCodes.NAMESPACE_FOREIGN
      && /holds classes db-shootout did not create: Notes/.test(error.message));
    const rows = await inDatabase(NAMESPACE, (session) => session.query('SELECT text FROM Notes').all());
    assert.deepEqual(rows, [{ text: 'mine' }]);
  });

  test('a marker that is not one JSON object is no marker', async () => {
    for (const statements of [["UPDATE Marker SET json = '[1]'"], ["UPDATE Marker SET json = 'not json'"],
      ['DELETE FROM Marker'], ["INSERT INTO Marker SET json = '{}'"]]) {
      const db = await open();
      await db.resetNamespace();
      await inDatabase(NAMESPACE, async (session) => {
        for (const sql of statements) await session.command(sql).all();
      });
      assert.equal((await db.inspectNamespace()).state, 'foreign', statements.join('; '));
      await db.close();
      await dropAll();
    }
  });

  test('another database is never touched', async () => {
    await client.createDatabase({ ...login(), name: OTHER, type: 'graph', storage: 'plocal' });
    await inDatabase(OTHER, (session) => session.command("INSERT INTO V SET owner = 'someone else'").all());
    const db = await open();
    await db.resetNamespace();
    await db.resetNamespace();
    const rows = await inDatabase(OTHER, (session) => session.query('SELECT owner FROM V').all());
    assert.deepEqual(rows, [{ owner: 'someone else' }]);
  });

  test('testSupport plants a foreign database and its cleanup removes it', async () => {
    const cleanup = await orientdb.testSupport.plantForeign(options);
    const db = await open();
    assert.equal((await db.inspectNamespace()).state, 'foreign');
    await db.close();
    await cleanup();
    assert.equal(await exists(NAMESPACE), false);
  });

  test('operations before the database exists fail clearly', async () => {
    const db = await open();
    await assert.rejects(db.singleRead('P1'), /database "dbshootout_orienttest_ns" does not exist/);
  });

  test('a namespace must be an identifier, and not the server\'s own database', () => {
    for (const namespace of ['bad-name', 'x y', '', 'OSystem', 'a'.repeat(64)]) {
      assert.throws(() => orientdb.create({ ...options, namespace }), (error) => error.code === ErrorCodes.USAGE,
        namespace);
    }
  });
});
