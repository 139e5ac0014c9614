// The parts of the mongodb adapter that need no server: names, document conversion through the driver's own
// BSON, client options, query shapes, settings, and the description. Everything that talks to a server is in
// conformance.test.js, connection.test.js and operations.test.js.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BSON, MongoClient, WriteConcern } from 'mongodb';
import { collectionCount } from '../../adapters/mongodb/adapter.js';
import { clientOptions, connectionUrl, serverAddress } from '../../adapters/mongodb/connection.js';
import mongodb from '../../adapters/mongodb/description.js';
import { ageHistogram, fromStored, toStored, toStoredRelation } from '../../adapters/mongodb/documents.js';
import {
  COLLECTIONS, INDEXES, MARKER_ID, databaseName, isOwnCollection, namespaceState, strangers, tempCollectionName,
} from '../../adapters/mongodb/namespace.js';
import {
  BATCH_SIZE, IN_SLICE, agePipeline, cursorOptions, neighbors2Pipeline, neighbors2dataPipeline, neighborsDataPipeline,
  relationQueries, relationsFind, slices, warmupIndexScans, warmupProfilesPipeline,
} from '../../adapters/mongodb/social.js';
import * as crud from '../../adapters/mongodb/crud.js';
import { flattenSettings, topologyOf } from '../../adapters/mongodb/settings.js';
import { WRITE_CONCERNS, termWrite } from '../../adapters/mongodb/terms.js';
import { ErrorCodes } from '../../core/errors.js';
import { OPERATIONS } from '../conformance/suite.js';

const options = {
  host: '127.0.0.1', port: 27017, user: null, password: undefined, database: null,
  namespace: 'dbshootout', concurrency: 25, connectTimeoutMs: 5000,
};

const profile = {
  _key: 'P42', public: 1, completion_percentage: 38, gender: 0, AGE: 26, region: 'zilinsky kraj, zilina',
  last_login: '2012-05-25 11:20:00.0', hobbies: 'šport, čítanie kníh ☺ 𝄞', more: 'tab\there "quoted" \\ <br />',
};

describe('mongodb namespace names', () => {
  test('the namespace is the database name, an identifier of at most 63 characters', () => {
    assert.equal(databaseName('dbshootout'), 'dbshootout');
    assert.equal(databaseName('Bench_2'), 'Bench_2');
    assert.equal(databaseName('a'.repeat(63)), 'a'.repeat(63));
    for (const bad of ['', 'db.shootout', 'db shootout', 'db/x', 'db$x', '1db', 'a'.repeat(64), null, 42]) {
      assert.throws(() => databaseName(bad), (error) => error.code === ErrorCodes.USAGE, JSON.stringify(bad));
    }
  });

  test('the server\'s own databases are refused whatever their case', () => {
    for (const reserved of ['admin', 'local', 'config', 'Admin', 'CONFIG']) {
      assert.throws(() => databaseName(reserved), (error) => error.code === ErrorCodes.USAGE && /server itself/.test(error.message));
    }
  });

  test('temporary collections are tmp_<name>, names checked', () => {
    assert.equal(tempCollectionName('dbshootout', 'singleWrite'), 'tmp_singleWrite');
    for (const bad of ['', 'a.b', 'a$b', 'system.x', '0x']) {
      assert.throws(() => tempCollectionName('dbshootout', bad), (error) => error.code === ErrorCodes.USAGE);
    }
    // <database>.tmp_<name> stays within MongoDB's 255 bytes.
    const longest = 255 - 'dbshootout'.length - 1 - 'tmp_'.length;
    assert.equal(tempCollectionName('dbshootout', 'x'.repeat(longest)).length, longest + 4);
    assert.throws(() => tempCollectionName('dbshootout', 'x'.repeat(longest + 1)), (error) => error.code === ErrorCodes.USAGE);
  });

  test('the collections and indexes have fixed names', () => {
    assert.deepEqual(COLLECTIONS, { profiles: 'profiles', relations: 'relations', marker: 'marker' });
    assert.deepEqual(INDEXES.from, { name: 'from_to', key: { _from: 1, _to: 1 } });
    assert.deepEqual(INDEXES.to, { name: 'to_from', key: { _to: 1, _from: 1 } });
    assert.deepEqual(Object.keys(INDEXES.to.key), ['_to', '_from'], 'key order is the index order');
  });
});

describe('mongodb namespace state', () => {
  test('a database without collections is absent', () => {
    assert.deepEqual(namespaceState([], null), { state: 'absent', marker: null });
  });

  test('the marker document with an object is owned, with that object', () => {
    const marker = { harness: 'db-shootout', dataset: 'tiny', imported: true, timings: { ms: 1.5 } };
    assert.deepEqual(namespaceState(['marker', 'profiles', 'relations'], { _id: MARKER_ID, marker }),
      { state: 'owned', marker });
    assert.deepEqual(namespaceState(['marker'], { _id: MARKER_ID, marker: {} }), { state: 'owned', marker: {} });
  });

  test('collections without a marker document, or with a marker that is no object, are foreign', () => {
    for (const markerDocument of [null, { _id: MARKER_ID }, { _id: MARKER_ID, marker: null },
      { _id: MARKER_ID, marker: 'x' }, { _id: MARKER_ID, marker: [1] }, { _id: MARKER_ID, marker: 3 }]) {
      assert.deepEqual(namespaceState(['profiles'], markerDocument), { state: 'foreign', marker: null },
        JSON.stringify(markerDocument));
    }
  });
});

describe('mongodb reset of an owned namespace', () => {
  test('only the adapter\'s own collection names are ever dropped', () => {
    for (const own of ['profiles', 'relations', 'marker', 'tmp_singleWrite']) assert.ok(isOwnCollection(own), own);
    for (const other of ['users', 'profiles2', 'tmp', 'Profiles', 'system.profile']) assert.ok(!isOwnCollection(other), other);
  });

  test('anything else in the database stops the reset, as in the ArangoDB adapter: other names, views, system.*', () => {
    const own = ['marker', 'profiles', 'relations', 'tmp_singleWrite'].map((name) => ({ name, type: 'collection' }));
    assert.deepEqual(strangers(own), []);
    assert.deepEqual(strangers([...own, { name: 'notes', type: 'collection' }, { name: 'tmp_v', type: 'view' },
      { name: 'system.views', type: 'collection' }]), ['collection notes', 'collection system.views', 'view tmp_v']);
  });
});

describe('mongodb counts', () => {
  const stub = { countDocuments: async (filter) => ({ exact: filter }), estimatedDocumentCount: async () => 'estimated' };

  test('exact after the adapter\'s own import (verified by the importer), from metadata otherwise (the reuse check)', async () => {
    assert.deepEqual(await collectionCount(true)(stub), { exact: {} });
    assert.equal(await collectionCount(false)(stub), 'estimated');
  });
});

describe('mongodb documents', () => {
  test('_key is stored as _id and read back as _key; the caller\'s document is left alone', () => {
    const copy = structuredClone(profile);
    const stored = toStored(profile);
    assert.deepEqual(profile, copy);
    assert.equal(stored._id, 'P42');
    assert.equal('_key' in stored, false);
    assert.deepEqual(fromStored(stored), profile);
  });

  test('a document without _key is stored without _id, for the driver to generate one', () => {
    assert.deepEqual(toStored({ AGE: 3 }), { AGE: 3 });
  });

  test('a document survives the driver\'s BSON exactly: integers as int32, text as strings, absent fields absent', () => {
    const bytes = BSON.serialize(toStored(profile));
    assert.deepEqual(fromStored(BSON.deserialize(bytes, { promoteValues: true })), profile);
    const raw = BSON.deserialize(bytes, { promoteValues: false });
    for (const field of ['public', 'completion_percentage', 'gender', 'AGE']) {
      assert.equal(raw[field]._bsontype, 'Int32', `${field} is stored as int32`);
    }
    assert.equal(raw.region, 'zilinsky kraj, zilina');
    assert.equal('body' in raw, false);
  });

  test('relations are copied to fresh objects of exactly _from and _to', () => {
    const edge = { _from: 'P1', _to: 'P2', extra: 1 };
    const stored = toStoredRelation(edge);
    assert.deepEqual(stored, { _from: 'P1', _to: 'P2' });
    assert.notEqual(stored, edge);
  });

  test('the AGE histogram is keyed by String(AGE), "null" for an absent AGE', () => {
    assert.deepEqual(ageHistogram([{ _id: 0, count: 3 }, { _id: 26, count: 2 }, { _id: null, count: 1 }]),
      { 0: 3, 26: 2, null: 1 });
    assert.deepEqual(ageHistogram([]), {});
  });
});

describe('mongodb client options', () => {
  test('the pool is sized from the concurrency, explicitly, and kept full', () => {
    const built = clientOptions({ ...options, concurrency: 7 });
    assert.equal(built.maxPoolSize, 7);
    assert.equal(built.minPoolSize, 7);
    assert.equal(built.maxConnecting, 7);
    assert.equal(built.maxIdleTimeMS, 0);
  });

  test('every connection wait is bounded by connectTimeoutMs', () => {
    const built = clientOptions({ ...options, connectTimeoutMs: 1234 });
    assert.equal(built.connectTimeoutMS, 1234);
    assert.equal(built.serverSelectionTimeoutMS, 1234);
  });

  test('values come back as JavaScript numbers, and undefined fields are left out', () => {
    const built = clientOptions(options);
    assert.equal(built.promoteValues, true);
    assert.equal(built.ignoreUndefined, true);
  });

  test('credentials only with a user; the authentication database is --database, else admin', () => {
    assert.equal('auth' in clientOptions(options), false);
    assert.equal('authSource' in clientOptions(options), false);
    const withUser = clientOptions({ ...options, user: 'bench', password: 'pw' });
    assert.deepEqual(withUser.auth, { username: 'bench', password: 'pw' });
    assert.equal(withUser.authSource, 'admin');
    assert.equal(clientOptions({ ...options, user: 'bench', password: 'pw', database: 'users' }).authSource, 'users');
  });

  test('the URL names the server only; IPv6 hosts are bracketed', () => {
    assert.equal(connectionUrl(options), 'mongodb://127.0.0.1:27017/');
    assert.equal(connectionUrl({ ...options, host: '::1', port: 27018 }), 'mongodb://[::1]:27018/');
    assert.equal(serverAddress({ ...options, host: 'DB.Example' }), 'db.example:27017');
  });

  test('the driver accepts the options as given (no connection is made)', async () => {
    const client = new MongoClient(connectionUrl(options), clientOptions({ ...options, user: 'bench', password: 'pw' }));
    try {
      assert.equal(client.options.maxPoolSize, 25);
      assert.equal(client.options.minPoolSize, 25);
      assert.equal(client.options.maxConnecting, 25);
      assert.equal(client.options.serverSelectionTimeoutMS, 5000);
      assert.equal(client.options.credentials.username, 'bench');
      assert.equal(client.options.credentials.source, 'admin');
    } finally {
      await client.close();
    }
  });

  test('the relaxed term asks for w:1 and j:false explicitly, the durable one for w:1 and j:true', () => {
    for (const [durable, j] of [[false, false], [true, true]]) {
      const writeConcern = WriteConcern.fromOptions(termWrite(durable));
      assert.equal(writeConcern.w, 1);
      assert.equal(writeConcern.j, j, 'sent as j, never left to the deployment\'s default');
    }
    assert.deepEqual(WRITE_CONCERNS, { relaxed: { w: 1, j: false }, durable: { w: 1, j: true } });
  });
});

describe('mongodb queries', () => {
  test('the aggregation groups every profile by AGE', () => {
    assert.deepEqual(agePipeline(), [{ $group: { _id: '$AGE', count: { $sum: 1 } } }]);
  });

  // One aggregation each on relations, as the classic benchmark ran them: the start's relations, their distinct
  // targets, and for two hops each target's own relations joined by $lookup; documents by a $lookup in profiles.
  const firstLevel = [{ $match: { _from: 'P1' } }, { $group: { _id: '$_to' } }];
  const profilesOfKeys = [
    { $lookup: { from: 'profiles', localField: '_id', foreignField: '_id', as: 'profile' } },
    { $unwind: '$profile' },
    { $replaceWith: '$profile' },
  ];
  const twoHops = [
    ...firstLevel,
    { $lookup: {
      from: 'relations', localField: '_id', foreignField: '_from', as: 'next', pipeline: [{ $project: { _id: 0, _to: 1 } }],
    } },
    { $project: { _id: 0, key: { $concatArrays: [['$_id'], '$next._to'] } } },
    { $unwind: '$key' },
    { $match: { key: { $ne: 'P1' } } },
    { $group: { _id: '$key' } },
  ];

  test('neighborsData: the distinct targets of the start\'s relations, then their profiles', () => {
    assert.deepEqual(neighborsDataPipeline('P1'), [...firstLevel, ...profilesOfKeys]);
  });

  test('neighbors2: both levels in one pipeline, the start left out, each key once', () => {
    assert.deepEqual(neighbors2Pipeline('P1'), twoHops);
  });

  test('neighbors2data: the same keys, then their profiles', () => {
    assert.deepEqual(neighbors2dataPipeline('P1'), [...twoHops, ...profilesOfKeys]);
  });

  test('the pipelines are plain data the driver can send', () => {
    for (const pipeline of [neighborsDataPipeline('P1'), neighbors2Pipeline('P1'), neighbors2dataPipeline('P1')]) {
      assert.deepEqual(BSON.deserialize(BSON.serialize({ pipeline })).pipeline, pipeline);
    }
  });

  test('relations are found without _id so the indexes cover them', () => {
    assert.deepEqual(relationsFind(), { projection: { _id: 0, _from: 1, _to: 1 }, batchSize: BATCH_SIZE });
    assert.deepEqual(cursorOptions(), { batchSize: BATCH_SIZE });
  });

  test('builders return fresh objects, which the driver may keep', () => {
    assert.notEqual(agePipeline(), agePipeline());
    assert.notEqual(neighbors2Pipeline('P1'), neighbors2Pipeline('P1'));
    assert.notEqual(cursorOptions(), cursorOptions());
    assert.notEqual(relationsFind().projection, relationsFind().projection);
  });

  test('key lists are cut into slices of at most IN_SLICE keys, in order', () => {
    assert.deepEqual(slices([]), []);
    assert.deepEqual(slices(['a', 'b', 'c', 'd', 'e'], 2), [['a', 'b'], ['c', 'd'], ['e']]);
    const keys = Array.from({ length: IN_SLICE * 2 + 1 }, (_, i) => `P${i}`);
    const cut = slices(keys);
    assert.deepEqual(cut.map((slice) => slice.length), [IN_SLICE, IN_SLICE, 1]);
    assert.deepEqual(cut.flat(), keys);
  });

  test('the largest slice fits a 16 MiB command with room to spare', () => {
    const keys = Array.from({ length: IN_SLICE }, (_, i) => `P${1632803 - i}`);
    assert.ok(BSON.calculateObjectSize({ _from: { $in: keys } }) < 4 * 1024 * 1024);
  });

  test('the warm-up reads whole profiles and walks each of the three indexes by its name', () => {
    assert.deepEqual(warmupProfilesPipeline(), [{ $group: { _id: null, bytes: { $sum: { $bsonSize: '$$ROOT' } } } }]);
    assert.deepEqual(warmupIndexScans().map(({ collection, options: { hint } }) => [collection, hint]),
      [['profiles', '_id_'], ['relations', 'from_to'], ['relations', 'to_from']]);
  });
});

// A recording stub of the Collection method relationQueries calls (find): it answers from canned arrays and
// records the filters and options it was given. It checks which queries the adapter sends; it is not a database.
function recordingCollectionStub() {
  const calls = [];
  const cursor = (answer) => ({ toArray: async () => answer });
  return {
    calls,
    find: (filter, findOptions) => {
      calls.push({ method: 'find', filter, options: findOptions });
      const [[field, { $in: keys }]] = Object.entries(filter);
      return cursor(keys.map((key) => (field === '_from' ? { _from: key, _to: 'T' } : { _from: 'S', _to: key })));
    },
  };
}

describe('mongodb relation queries', () => {

  test('outgoing and incoming relations: a covered find on _from or _to per slice', async () => {
    const stub = recordingCollectionStub();
    const queries = relationQueries(stub);
    assert.deepEqual(await queries.outgoing(['P1', 'P2']), [{ _from: 'P1', _to: 'T' }, { _from: 'P2', _to: 'T' }]);
    assert.deepEqual(await queries.incoming(['P3']), [{ _from: 'S', _to: 'P3' }]);
    assert.deepEqual(stub.calls, [
      { method: 'find', filter: { _from: { $in: ['P1', 'P2'] } }, options: relationsFind() },
      { method: 'find', filter: { _to: { $in: ['P3'] } }, options: relationsFind() },
    ]);
    stub.calls.length = 0;
    const many = Array.from({ length: IN_SLICE * 2 }, (_, i) => `P${i}`);
    assert.equal((await queries.outgoing(many)).length, many.length);
    assert.deepEqual(stub.calls.map(({ filter }) => filter._from.$in.length), [IN_SLICE, IN_SLICE]);
  });
});

describe('mongodb settings', () => {
  test('the deployment is told from hello', () => {
    assert.equal(topologyOf({ isWritablePrimary: true }), 'standalone');
    assert.equal(topologyOf({ setName: 'rs0' }), 'replica set rs0');
    assert.equal(topologyOf({ msg: 'isdbgrid' }), 'sharded cluster (mongos)');
  });

  test('the answers flatten to the values that matter; refused probes leave theirs out', () => {
    assert.deepEqual(flattenSettings({
      hello: { setName: 'rs0' },
      serverStatus: { storageEngine: { name: 'wiredTiger' }, wiredTiger: { cache: { 'maximum bytes configured': 1073741824 } } },
      journalCommitInterval: { journalCommitInterval: 100, ok: 1 },
      syncdelay: { syncdelay: 60, ok: 1 },
      defaultRWConcern: { defaultWriteConcern: { w: 'majority', wtimeout: 0 }, defaultWriteConcernSource: 'implicit' },
      replSetConfig: { config: { writeConcernMajorityJournalDefault: true } },
    }), {
      topology: 'replica set rs0',
      storageEngine: 'wiredTiger',
      wiredTigerCacheBytes: 1073741824,
      journalCommitIntervalMs: 100,
      syncPeriodSecs: 60,
      defaultWriteConcern: '{"w":"majority","wtimeout":0}',
      defaultWriteConcernSource: 'implicit',
      writeConcernMajorityJournalDefault: true,
    });
    assert.deepEqual(flattenSettings({ hello: {} }), { topology: 'standalone' });
  });
});

describe('mongodb description', () => {
  test('declares a parallel server adapter with every operation and both durabilities', () => {
    assert.equal(mongodb.id, 'mongodb');
    assert.equal(mongodb.kind, 'server');
    assert.equal(mongodb.execution, 'parallel');
    assert.equal(mongodb.server, null);
    assert.equal(mongodb.driver, 'mongodb');
    assert.deepEqual([...mongodb.supports].sort(), [...OPERATIONS].sort());
    assert.match(mongodb.durability.singleWrite, /\{ w: 1, j: false \}/);
    assert.match(mongodb.durability.singleWriteSync, /\{ w: 1, j: true \}/);
    assert.deepEqual(mongodb.connection, {
      defaults: { host: '127.0.0.1', port: 27017, user: null, database: null },
      passwordEnv: 'BENCH_MONGODB_PASSWORD',
    });
    assert.equal(typeof mongodb.testSupport.plantForeign, 'function');
    assert.equal(typeof mongodb.testSupport.dropNamespace, 'function');
  });

  test('create() checks the namespace before any connection', () => {
    assert.throws(() => mongodb.create({ ...options, namespace: 'admin' }), (error) => error.code === ErrorCodes.USAGE);
    assert.throws(() => mongodb.create({ ...options, namespace: 'a.b' }), (error) => error.code === ErrorCodes.USAGE);
  });

  test('an unconnected adapter says so instead of failing obscurely', async () => {
    const adapter = mongodb.create(options);
    await assert.rejects(adapter.singleRead('P1'), /not connected/);
    await adapter.close();
  });
});

// A recording stub of the Collection methods the document operations call: it records each call and answers with
// the counts given, as the driver resolves them. It checks the commands the adapter sends; it is not a database.
function documentCollectionStub({ stored = null, matchedCount = 1, deletedCount = 1 } = {}) {
  const calls = [];
  return {
    calls,
    insertOne: async (doc, writeOptions) => { calls.push(['insertOne', doc, writeOptions]); return { acknowledged: true }; },
    findOne: async (filter) => { calls.push(['findOne', filter]); return stored; },
    replaceOne: async (filter, doc, writeOptions) => {
      calls.push(['replaceOne', filter, doc, writeOptions]);
      return { acknowledged: true, matchedCount, modifiedCount: matchedCount };
    },
    deleteOne: async (filter, writeOptions) => { calls.push(['deleteOne', filter, writeOptions]); return { acknowledged: true, deletedCount }; },
  };
}

describe('mongodb document operations', () => {
  const doc = JSON.parse('{"_key": "C7", "name": "Žilina 𝄞", "__proto__": "p", "score": -9007199254740991, "empty": ""}');
  const { _key, ...fields } = doc;
  const storedDoc = { _id: _key, ...fields };

  test('each is one command by _id; durable: false is w:1, j:false (not the default write concern), durable: true is w:1, j:true', async () => {
    for (const durable of [false, true]) {
      const stub = documentCollectionStub();
      assert.equal(await crud.insertDocument(stub, doc, { durable }), undefined);
      assert.equal(await crud.updateDocument(stub, 'C7', doc, { durable }), undefined);
      assert.equal(await crud.deleteDocument(stub, 'C7', { durable }), undefined);
      const writeOptions = termWrite(durable);
      assert.deepEqual(stub.calls, [
        ['insertOne', storedDoc, writeOptions],
        ['replaceOne', { _id: 'C7' }, storedDoc, writeOptions],
        ['deleteOne', { _id: 'C7' }, writeOptions],
      ]);
      const concern = WriteConcern.fromOptions(stub.calls[0][2]);
      assert.deepEqual([concern?.w, concern?.j], [1, durable]);
    }
  });

  test('the stored document is a fresh object holding every field, __proto__ too, and no _key', async () => {
    const stub = documentCollectionStub();
    await crud.insertDocument(stub, doc, { durable: false });
    const [[, sent]] = stub.calls;
    assert.notEqual(sent, doc);
    assert.equal(Object.hasOwn(sent, '__proto__'), true);
    assert.equal('_key' in sent, false);
    assert.deepEqual(fromStored(BSON.deserialize(BSON.serialize(sent), { promoteValues: true })), doc,
      'the document survives the driver\'s BSON exactly');
  });

  test('getDocument finds by _id and answers the contract\'s shape, or null', async () => {
    const found = documentCollectionStub({ stored: storedDoc });
    assert.deepEqual(await crud.getDocument(found, 'C7'), doc);
    assert.deepEqual(found.calls, [['findOne', { _id: 'C7' }]]);
    assert.equal(await crud.getDocument(documentCollectionStub(), 'C8'), null);
  });

  test('an update that matched nothing, or a delete that deleted nothing, rejects naming the key', async () => {
    await assert.rejects(crud.updateDocument(documentCollectionStub({ matchedCount: 0 }), 'C404', doc, { durable: false }),
      /cannot update document "C404"/);
    await assert.rejects(crud.deleteDocument(documentCollectionStub({ deletedCount: 0 }), 'C404', { durable: true }),
      /cannot delete document "C404"/);
  });
});
