// The namespace is one database: created, recognised and reset by the adapter; whatever db-shootout did not
// create, inside it or beside it, stops a reset and is never dropped. Needs an ArangoDB server
// (BENCH_ARANGODB_URL); without one every case skips with that reason.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Database } from 'arangojs';
import arangodb from '../../adapters/arangodb/description.js';
import { ARANGO_ERRORS, databaseConfig, isArangoErrorNumber } from '../../adapters/arangodb/connection.js';
import { ErrorCodes } from '../../core/errors.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_arangotest_ns';
// Someone else's database beside the namespace.
const OTHER = 'dbshootout_arangotest_other';
const { options, skip } = serverTarget(arangodb, { namespace: NAMESPACE, concurrency: 2 });

describe('arangodb namespace', { skip }, () => {
  let home;
  const adapters = [];

  async function open() {
    const adapter = arangodb.create(options);
    adapters.push(adapter);
    await adapter.connect();
    return adapter;
  }

  async function dropDatabase(name) {
    try {
      await home.dropDatabase(name);
    } catch (error) {
      if (!isArangoErrorNumber(error, ARANGO_ERRORS.databaseNotFound)) throw error;
    }
  }

  const collectionsOf = async (name) => (await home.database(name).listCollections(true))
    .map(({ name: collection, type }) => [collection, type]).sort();

  before(() => {
    home = new Database(databaseConfig(options));
  });

  beforeEach(async () => {
    await dropDatabase(NAMESPACE);
    await dropDatabase(OTHER);
  });

  after(async () => {
    for (const adapter of adapters) await adapter.close();
    await dropDatabase(NAMESPACE);
    await dropDatabase(OTHER);
    home.close();
  });

  test('an absent namespace is created as a database with its collections and the empty marker', async () => {
    const adapter = await open();
    assert.deepEqual(await adapter.inspectNamespace(), { state: 'absent', marker: null });
    await adapter.resetNamespace();
    assert.deepEqual(await adapter.inspectNamespace(), { state: 'owned', marker: {} });
    assert.deepEqual(await collectionsOf(NAMESPACE), [['marker', 2], ['profiles', 2], ['relations', 3]]);
  });

  test('a reset leaves neither data nor temporary collections of the previous dataset', async () => {
    const adapter = await open();
    await adapter.resetNamespace();
    await adapter.writeMarker({ dataset: 'before', imported: true });
    await adapter.importProfiles([{ _key: 'P1', AGE: 20 }, { _key: 'P2', AGE: 30 }]);
    await adapter.importRelations([{ _from: 'P1', _to: 'P2' }]);
    await adapter.createTempCollection('leftover');
    await adapter.resetNamespace();
    assert.deepEqual(await adapter.inspectNamespace(), { state: 'owned', marker: {} });
    assert.deepEqual(await adapter.counts(), { profiles: 0, relations: 0 });
    assert.deepEqual(await collectionsOf(NAMESPACE), [['marker', 2], ['profiles', 2], ['relations', 3]]);
  });

  test('an empty database of the namespace\'s name is foreign, and a reset leaves it as it is', async () => {
    await home.createDatabase(NAMESPACE);
    const adapter = await open();
    assert.deepEqual(await adapter.inspectNamespace(), { state: 'foreign', marker: null });
    await assert.rejects(adapter.resetNamespace(), (error) => error.code === ErrorCodes.NAMESPACE_FOREIGN);
    assert.deepEqual(await collectionsOf(NAMESPACE), []);
  });

  test('a collection someone added to an owned namespace stops the reset, and survives it', async () => {
    const adapter = await open();
    await adapter.resetNamespace();
    const notes = await home.database(NAMESPACE).createCollection('notes');
    await notes.save({ text: 'mine' });
    await assert.rejects(adapter.resetNamespace(), (error) => {
      assert.equal(error.code, ErrorCodes.NAMESPACE_FOREIGN);
      assert.match(error.message, /collection notes/);
      return true;
    });
    assert.equal((await notes.count()).count, 1);
    assert.equal((await adapter.inspectNamespace()).state, 'owned');
  });

  test('another database, whatever it holds, is never touched', async () => {
    const other = await home.createDatabase(OTHER);
    const profiles = await other.createCollection('profiles');
    await profiles.save({ _key: 'P1', owner: 'someone else' });
    const adapter = await open();
    await adapter.resetNamespace();
    await adapter.resetNamespace();
    assert.deepEqual(await collectionsOf(OTHER), [['profiles', 2]]);
    assert.equal((await profiles.count()).count, 1);
  });
});
