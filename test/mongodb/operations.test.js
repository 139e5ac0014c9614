// What the conformance suite does not cover, against a real MongoDB server (BENCH_MONGODB_URL): exact document
// round trips of awkward text, duplicate relations and self-loops, key sets larger than one `$in` slice, and
// the namespace checks for a marker that is a view or an owned database someone added to. Skips with the
// reason without a server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MongoClient } from 'mongodb';
import { clientOptions, connectionUrl } from '../../adapters/mongodb/connection.js';
import mongodb from '../../adapters/mongodb/description.js';
import { IN_SLICE } from '../../adapters/mongodb/social.js';
import { ErrorCodes } from '../../core/errors.js';
import { documentDifference, keySetDifference } from '../../workloads/compare.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_mongotest_ops';
const { options, skip } = serverTarget(mongodb, { namespace: NAMESPACE });

const base = { public: 1, completion_percentage: 38, gender: 1, region: 'zilinsky kraj, zilina' };
// Text MongoDB must keep exactly: a NUL character, `$` and `.` (operators and paths elsewhere), JSON-looking
// text, non-BMP characters, a long value. P5 has no AGE (the histogram counts it under "null").
const PROFILES = [
  { ...base, _key: 'P1', AGE: 26, hobbies: 'nul\u0000inside, $set, a.b.c', pets: '{"$gt": ""}' },
  { ...base, _key: 'P2', AGE: 0, gender: 0, music: 'ľudová hudba ☺ 𝄞 <b>rock</b>', fun: '' },
  { ...base, _key: 'P3', AGE: 18, education: 'x'.repeat(100_000) },
  { ...base, _key: 'P4', AGE: 0, public: 0, completion_percentage: 0 },
  { ...base, _key: 'P5', body: ' leading and trailing spaces ' },
  { _key: 'P6', AGE: 41 },
];
// P1 -> P2 twice; P1 <-> P2; P3 -> P3 a self-loop; P3 -> P4 -> P5 -> P6.
const RELATIONS = [['P1', 'P2'], ['P1', 'P2'], ['P2', 'P1'], ['P2', 'P3'], ['P3', 'P3'], ['P3', 'P4'],
  ['P4', 'P5'], ['P5', 'P6']].map(([_from, _to]) => ({ _from, _to }));

const byKey = new Map(PROFILES.map((doc) => [doc._key, doc]));

async function withClient(work) {
  const client = new MongoClient(connectionUrl(options), clientOptions({ ...options, concurrency: 1 }));
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

describe('mongodb operations against a server', { skip }, () => {
  let adapter;

  before(async () => {
    adapter = mongodb.create(options);
    await adapter.connect();
    await adapter.resetNamespace();
    await adapter.importProfiles(PROFILES);
    await adapter.importRelations(RELATIONS);
    await adapter.createIndexes();
  });

  after(async () => {
    await adapter?.close();
    await mongodb.testSupport.dropNamespace(options);
  });

  test('documents come back exactly, integers as numbers, absent fields absent', async () => {
    for (const doc of PROFILES) {
      assert.equal(documentDifference(doc, await adapter.singleRead(doc._key)), null, doc._key);
    }
  });

  test('duplicate relations are stored and counted, exactly and from metadata; the indexes exist by name', async () => {
    assert.deepEqual(await adapter.counts(), { profiles: PROFILES.length, relations: RELATIONS.length });
    // A fresh instance, as the importer's reuse check has, counts from the collections' metadata.
    const fresh = mongodb.create(options);
    await fresh.connect();
    try {
      assert.deepEqual(await fresh.counts(), { profiles: PROFILES.length, relations: RELATIONS.length });
    } finally {
      await fresh.close();
    }
    const names = await withClient((client) => client.db(NAMESPACE).collection('relations').indexes())
      .then((indexes) => indexes.map(({ name }) => name).sort());
    assert.deepEqual(names, ['_id_', 'from_to', 'to_from']);
  });

  test('the histogram counts an absent AGE under "null"', async () => {
    assert.deepEqual(await adapter.aggregation(), { 0: 2, 18: 1, 26: 1, 41: 1, null: 1 });
  });

  test('neighbours: duplicates once, a self-loop is a neighbour, never the start in two hops', async () => {
    assert.equal(keySetDifference(['P2'], await adapter.neighbors('P1')), null);
    assert.equal(keySetDifference(['P3', 'P4'], await adapter.neighbors('P3')), null);
    const documents = await adapter.neighborsData('P3');
    assert.equal(keySetDifference(['P3', 'P4'], documents.map((doc) => doc._key)), null);
    for (const doc of documents) assert.equal(documentDifference(byKey.get(doc._key), doc), null);
    assert.equal(keySetDifference(['P1', 'P3', 'P4'], await adapter.neighbors2('P2')), null);
    assert.equal(keySetDifference(['P4', 'P5'], await adapter.neighbors2('P3')), null);
    for (const doc of await adapter.neighbors2data('P2')) assert.equal(documentDifference(byKey.get(doc._key), doc), null);
  });

  test('shortest paths through self-loops and duplicates', async () => {
    assert.deepEqual(await adapter.shortestPath('P1', 'P6', 15), ['P1', 'P2', 'P3', 'P4', 'P5', 'P6']);
    assert.equal(await adapter.shortestPath('P1', 'P6', 4), null);
    assert.equal(await adapter.shortestPath('P6', 'P1', 15), null);
  });

  test('writes: both modes, a leftover temporary collection is emptied, a document without _key is counted', async () => {
    await adapter.createTempCollection('ops');
    await adapter.singleWrite('ops', { ...PROFILES[0], _key: 'W1' });
    await adapter.singleWriteSync('ops', { ...PROFILES[1], _key: 'W2' });
    await adapter.singleWrite('ops', { AGE: 3 });
    assert.equal(await adapter.countDocuments('ops'), 3);
    assert.equal(documentDifference({ ...PROFILES[1], _key: 'W2' }, await adapter.readDocument('ops', 'W2')), null);
    await adapter.createTempCollection('ops');
    assert.equal(await adapter.countDocuments('ops'), 0);
    await adapter.dropTempCollection('ops');
    await adapter.dropTempCollection('ops');
  });

  test('warmup and settings answer', async () => {
    await adapter.warmup();
    const settings = await adapter.settings();
    assert.equal(typeof settings.topology, 'string');
  });
});

describe('mongodb key sets larger than one $in slice', { skip, timeout: 300_000 }, () => {
  const namespace = `${NAMESPACE}_wide`;
  const wide = { ...options, namespace };
  // P0 -> P1..Pn, each Pi -> Z: n + 1 keys within two hops of P0.
  const n = IN_SLICE + 10;
  let adapter;

  before(async () => {
    adapter = mongodb.create(wide);
    await adapter.connect();
    await adapter.resetNamespace();
    const keys = Array.from({ length: n }, (_, i) => `P${i + 1}`);
    await adapter.importProfiles([{ _key: 'P0', AGE: 1 }, { _key: 'Z', AGE: 2 }, ...keys.map((_key) => ({ _key, AGE: 3 }))]);
    await adapter.importRelations([...keys.map((_to) => ({ _from: 'P0', _to })), ...keys.map((_from) => ({ _from, _to: 'Z' }))]);
    await adapter.createIndexes();
  });

  after(async () => {
    await adapter?.close();
    await mongodb.testSupport.dropNamespace(wide);
  });

  test('neighbors2 and neighbors2data return every key once', async () => {
    const keys = await adapter.neighbors2('P0');
    assert.equal(keys.length, n + 1);
    assert.equal(new Set(keys).size, n + 1);
    assert.equal((await adapter.neighbors2data('P0')).length, n + 1);
  });

  test('a path through the wide level', async () => {
    const path = await adapter.shortestPath('P0', 'Z', 15);
    assert.equal(path.length, 3);
  });
});

describe('mongodb namespace checks against a server', { skip }, () => {
  const namespace = `${NAMESPACE}_ns`;
  const target = { ...options, namespace };

  after(() => mongodb.testSupport.dropNamespace(target));

  test('a view named marker is not a marker: foreign, and refused', async () => {
    await withClient(async (client) => {
      const db = client.db(namespace);
      await db.dropDatabase();
      await db.collection('things').insertOne({ marker: { harness: 'db-shootout' } });
      await db.createCollection('marker', { viewOn: 'things', pipeline: [] });
    });
    const adapter = mongodb.create(target);
    await adapter.connect();
    try {
      assert.equal((await adapter.inspectNamespace()).state, 'foreign');
      await assert.rejects(adapter.resetNamespace(), (error) => {
        assert.equal(error.code, ErrorCodes.NAMESPACE_FOREIGN);
        assert.match(error.message, /\bmarker\b.*\bthings\b/);
        return true;
      });
    } finally {
      await adapter.close();
    }
    await withClient((client) => client.db(namespace).dropDatabase());
  });

  test('a collection someone added to an owned namespace stops the reset, and survives it', async () => {
    const adapter = mongodb.create(target);
    await adapter.connect();
    try {
      await adapter.resetNamespace();
      await adapter.writeMarker({ dataset: 'x' });
      await withClient((client) => client.db(namespace).collection('added').insertOne({ a: 1 }));
      await assert.rejects(adapter.resetNamespace(), (error) => {
        assert.equal(error.code, ErrorCodes.NAMESPACE_FOREIGN);
        assert.match(error.message, /collection added/);
        return true;
      });
      assert.deepEqual(await adapter.inspectNamespace(), { state: 'owned', marker: { dataset: 'x' } });
      const names = await withClient((client) => client.db(namespace).listCollections({}, { nameOnly: true }).toArray());
      assert.deepEqual(names.map(({ name }) => name).sort(), ['added', 'marker', 'profiles', 'relations']);
    } finally {
      await adapter.close();
    }
    await withClient((client) => client.db(namespace).collection('added').drop());
  });

  test('a reset drops the adapter\'s own collections by name, temporary ones too, and the marker starts empty', async () => {
    const adapter = mongodb.create(target);
    await adapter.connect();
    try {
      await adapter.resetNamespace();
      await adapter.writeMarker({ dataset: 'x' });
      await adapter.importProfiles([{ _key: 'P1', AGE: 1 }]);
      await adapter.createTempCollection('left');
      await adapter.singleWrite('left', { _key: 'W1' });
      await adapter.resetNamespace();
      assert.deepEqual(await adapter.inspectNamespace(), { state: 'owned', marker: {} });
      assert.deepEqual(await adapter.counts(), { profiles: 0, relations: 0 });
      const names = await withClient((client) => client.db(namespace).listCollections({}, { nameOnly: true }).toArray());
      assert.deepEqual(names.map(({ name }) => name).sort(), ['marker', 'profiles', 'relations']);
    } finally {
      await adapter.close();
    }
  });
});
