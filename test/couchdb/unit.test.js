// The parts of the couchdb adapter that need no server: database names, the document mapping, the version string,
// and how updates and deletes find the revision CouchDB asks for (against a stand-in database that answers as
// CouchDB does, counting the requests). server.test.js runs the same against a real server.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as crud from '../../adapters/couchdb/crud.js';
import { describeServer } from '../../adapters/couchdb/connection.js';
import couchdb from '../../adapters/couchdb/description.js';
import { documentBody, fromStored } from '../../adapters/couchdb/documents.js';
import {
  markerDatabase, namespaceDatabases, namespacePrefix, namespaceState, tempDatabase,
} from '../../adapters/couchdb/namespace.js';
import { ErrorCodes } from '../../core/errors.js';
import { GRAPH_OPERATIONS, WRITE_OPERATIONS } from '../../workloads/graph/operations.js';
import { CASE_NAMES } from '../../workloads/queries/cases.js';

// CouchDB's database names: a lower-case letter, then lower-case letters, digits and _$()+-/.
const COUCHDB_NAME = /^[a-z][a-z0-9_$()+/-]*$/;

describe('couchdb: database names', () => {
  test('the namespace and the collection are lower-cased into valid CouchDB database names', () => {
    assert.equal(markerDatabase('DbShootout_Test'), 'dbshootout_test-marker');
    assert.equal(tempDatabase('dbshootout', 'crash_singleWriteSync'), 'dbshootout-tmp-crash_singlewritesync');
    assert.equal(tempDatabase('dbshootout', 'conformance_readCollection_other'), 'dbshootout-tmp-conformance_readcollection_other');
    for (const name of [markerDatabase('A1_b'), tempDatabase('A1_b', 'X_9')]) assert.match(name, COUCHDB_NAME);
  });

  test('names that make no CouchDB database name are refused before any request', () => {
    for (const namespace of ['1abc', '_abc', 'a-b', 'a b', '', null]) {
      assert.throws(() => namespacePrefix(namespace), (error) => error.code === ErrorCodes.USAGE, String(namespace));
    }
    for (const collection of ['', 'a-b', 'a/b', 'x'.repeat(41)]) {
      assert.throws(() => tempDatabase('dbshootout', collection), (error) => error.code === ErrorCodes.USAGE, collection);
    }
  });

  test("a namespace's databases are exactly those under its prefix, never a longer namespace's", () => {
    const all = ['_users', 'dbshootout-marker', 'dbshootout-tmp-crud', 'dbshootout_check-marker',
      'dbshootout_conformance-tmp-x', 'dbshootoutx-marker', 'other'];
    assert.deepEqual(namespaceDatabases(all, 'dbshootout'), ['dbshootout-marker', 'dbshootout-tmp-crud']);
    assert.deepEqual(namespaceDatabases(all, 'dbshootout_check'), ['dbshootout_check-marker']);
    assert.deepEqual(namespaceDatabases(all, 'DBSHOOTOUT_CONFORMANCE'), ['dbshootout_conformance-tmp-x']);
  });

  test('the state: absent without databases, owned with a marker object, foreign otherwise', () => {
    assert.deepEqual(namespaceState([], null), { state: 'absent', marker: null });
    assert.deepEqual(namespaceState(['n-marker'], { _id: 'marker', marker: { a: 1 } }), { state: 'owned', marker: { a: 1 } });
    for (const document of [null, { _id: 'marker' }, { marker: [1] }, { marker: 'x' }, { marker: null }]) {
      assert.deepEqual(namespaceState(['n-profiles'], document), { state: 'foreign', marker: null });
    }
  });
});

describe('couchdb: documents', () => {
  const doc = Object.fromEntries([['_key', 'C1'], ['name', 'x'], ['__proto__', 'p'], ['constructor', 0],
    ['$odd', 'dollar'], ['n', -5]]);

  test('_key becomes the id; a name CouchDB reserves (leading _) or the escape ($) goes behind a $', () => {
    const body = documentBody(doc);
    assert.deepEqual(Object.keys(body), ['name', '$__proto__', 'constructor', '$$odd', 'n']);
    assert.equal(Object.getPrototypeOf(body), Object.prototype);
    assert.equal(documentBody(doc, '3-abc')._rev, '3-abc');
    assert.equal(JSON.parse(JSON.stringify(documentBody(doc)))._id, undefined, 'the id goes in the URL');
  });

  test('a stored document reads back exactly as written, __proto__ an own field', () => {
    const stored = JSON.parse(JSON.stringify({ _id: 'C1', _rev: '1-x', ...documentBody(doc) }));
    const back = fromStored(stored);
    assert.deepEqual(Object.entries(back).sort(), Object.entries(doc).sort());
    assert.ok(Object.hasOwn(back, '__proto__'));
    assert.equal(Object.getPrototypeOf(back), Object.prototype);
  });
});

describe('couchdb: the version string', () => {
  test('Apache CouchDB is named by its version', () => {
    assert.equal(describeServer({ couchdb: 'Welcome', version: '3.4.2', vendor: { name: 'The Apache Software Foundation' } }), '3.4.2');
  });

  test('PouchDB Server names itself, never CouchDB alone', () => {
    const version = describeServer({ 'express-pouchdb': 'Welcome!', version: '4.2.0', 'pouchdb-adapters': ['leveldb'],
      vendor: { name: 'PouchDB authors', version: '4.2.0' } });
    assert.match(version, /^PouchDB Server 4\.2\.0 /);
    assert.match(version, /express-pouchdb 4\.2\.0 on leveldb/);
    assert.match(version, /not Apache CouchDB$/);
  });

  test('another server that speaks the API says so', () => {
    assert.equal(describeServer({ 'some-couch': 'Welcome to it', version: '1.0' }),
      'some-couch 1.0 (a CouchDB HTTP API, not Apache CouchDB)');
  });
});

// A database that answers PUT, GET and DELETE of documents as CouchDB does, and records every request.
function standIn() {
  const docs = new Map();
  const requests = [];
  let counter = 0;
  const reject = (statusCode, error, reason) => Promise.reject(Object.assign(new Error(reason), { statusCode, error, reason }));
  const scope = {
    config: { db: 'n-tmp-c' },
    async insert(body, key) {
      requests.push(`PUT ${key}${body._rev ? ` rev=${body._rev}` : ''}`);
      const current = docs.get(key);
      if (current?.rev !== body._rev) {
        return reject(409, 'conflict', 'Document update conflict');
      }
      counter += 1;
      const { _rev, ...fields } = body;
      docs.set(key, { rev: `${counter}-r`, fields });
      return { ok: true, id: key, rev: `${counter}-r` };
    },
    async get(key) {
      requests.push(`GET ${key}`);
      const current = docs.get(key);
      if (!current) return reject(404, 'not_found', 'missing');
      return { _id: key, _rev: current.rev, ...current.fields };
    },
    async destroy(key, rev) {
      requests.push(`DELETE ${key} rev=${rev}`);
      const current = docs.get(key);
      if (!current) return reject(404, 'not_found', 'missing');
      if (current.rev !== rev) return reject(409, 'conflict', 'Document update conflict');
      docs.delete(key);
      return { ok: true };
    },
  };
  // Another client's write: the revision this adapter knows is no longer the current one.
  const writeElsewhere = (key, fields) => { counter += 1; docs.set(key, { rev: `${counter}-r`, fields }); };
  const store = { label: 'couchdb', database: () => scope, revisions: new Map() };
  return { store, docs, requests, writeElsewhere };
}

describe('couchdb: revisions of updates and deletes', () => {
  test('with the revision of its own insert, an update and a delete are one request each', async () => {
    const { store, requests } = standIn();
    await crud.insertDocument(store, 'c', { _key: 'C1', a: 1 });
    await crud.updateDocument(store, 'c', 'C1', { _key: 'C1', b: 2 });
    await crud.deleteDocument(store, 'c', 'C1');
    assert.deepEqual(requests, ['PUT C1', 'PUT C1 rev=1-r', 'DELETE C1 rev=2-r']);
  });

  test('a 409 conflict (the document changed elsewhere) reads the current revision and writes again', async () => {
    const { store, requests, docs, writeElsewhere } = standIn();
    await crud.insertDocument(store, 'c', { _key: 'C1', a: 1 });
    writeElsewhere('C1', { other: true });
    await crud.updateDocument(store, 'c', 'C1', { _key: 'C1', b: 2 });
    assert.deepEqual(docs.get('C1').fields, { b: 2 });
    writeElsewhere('C1', { other: true });
    await crud.deleteDocument(store, 'c', 'C1');
    assert.equal(docs.has('C1'), false);
    assert.deepEqual(requests, ['PUT C1', 'PUT C1 rev=1-r', 'GET C1', 'PUT C1 rev=2-r',
      'DELETE C1 rev=3-r', 'GET C1', 'DELETE C1 rev=4-r']);
  });

  test('without a known revision the update reads it first; a missing key rejects and creates nothing', async () => {
    const { store, requests, docs, writeElsewhere } = standIn();
    writeElsewhere('C7', { a: 1 });
    await crud.updateDocument(store, 'c', 'C7', { _key: 'C7', a: 2 });
    assert.deepEqual(requests, ['GET C7', 'PUT C7 rev=1-r']);
    await assert.rejects(crud.updateDocument(store, 'c', 'C8', { _key: 'C8', a: 2 }), /no document has that key/);
    await assert.rejects(crud.deleteDocument(store, 'c', 'C8'), /no document has that key/);
    assert.equal(docs.has('C8'), false, 'an update is never an insert');
  });

  test('a key deleted elsewhere: the update with its old revision conflicts, then rejects as missing', async () => {
    const { store, docs } = standIn();
    await crud.insertDocument(store, 'c', { _key: 'C1', a: 1 });
    docs.delete('C1');
    await assert.rejects(crud.updateDocument(store, 'c', 'C1', { _key: 'C1', a: 2 }), /no document has that key/);
    assert.equal(docs.has('C1'), false);
  });

  test('a duplicate insert rejects with the conflict; a get of a missing key is null', async () => {
    const { store } = standIn();
    await crud.insertDocument(store, 'c', { _key: 'C1', a: 1 });
    await assert.rejects(crud.insertDocument(store, 'c', { _key: 'C1', a: 2 }), /a document has that key \(HTTP 409\)/);
    assert.equal(await crud.getDocument(store, 'c', 'C2'), null);
    assert.deepEqual(await crud.getDocument(store, 'c', 'C1'), { _key: 'C1', a: 1 });
  });

  test('a conflict that never ends gives up after MAX_CONFLICT_RETRIES retries with an Error', async () => {
    const { store, requests, writeElsewhere } = standIn();
    writeElsewhere('C1', { a: 1 });
    const scope = store.database();
    const insert = scope.insert;
    scope.insert = async (body, key) => { writeElsewhere(key, { a: 1 }); return insert(body, key); };
    await assert.rejects(crud.updateDocument(store, 'c', 'C1', { _key: 'C1', a: 2 }), /still in conflict after 100 retries/);
    assert.equal(requests.filter((request) => request.startsWith('PUT')).length, crud.MAX_CONFLICT_RETRIES + 1);
  });

  test('a 404 about the database is an error, not a missing document', async () => {
    const { store } = standIn();
    store.database().get = async () => Promise.reject(Object.assign(new Error('Database does not exist.'),
      { statusCode: 404, error: 'not_found', reason: 'Database does not exist.' }));
    await assert.rejects(crud.getDocument(store, 'c', 'C1'), /Database does not exist\. \(HTTP 404\)/);
  });
});

describe('couchdb: description', () => {
  test('it offers the crud suite and the query cases CouchDB expresses, and names PouchDB Server as the local server family', () => {
    const cases = couchdb.supports.filter((name) => CASE_NAMES.includes(name));
    assert.deepEqual(couchdb.supports.filter((name) => !cases.includes(name)), ['insertDocument', 'getDocument', 'updateDocument', 'deleteDocument']);
    const unsupportedCases = Object.keys(couchdb.unsupported).filter((name) => !GRAPH_OPERATIONS.includes(name));
    assert.deepEqual([...cases, ...unsupportedCases].sort(), [...CASE_NAMES].sort(), 'every case supported or given a reason');
    assert.ok(unsupportedCases.every((name) => /join|subquery|concat|merge/.test(name)));
    assert.equal(couchdb.server, 'pouchdb');
    assert.equal(couchdb.connection.passwordEnv, 'BENCH_COUCHDB_PASSWORD');
    for (const mode of ['singleWrite', 'singleWriteSync']) assert.match(couchdb.durability[mode], /PouchDB Server/);
  });

  test('no graph operation is offered, each with its reason: the writes need the revision first', () => {
    assert.deepEqual(couchdb.supports.filter((name) => GRAPH_OPERATIONS.includes(name)), []);
    for (const operation of GRAPH_OPERATIONS) assert.equal(typeof couchdb.unsupported[operation], 'string', operation);
    for (const operation of WRITE_OPERATIONS) assert.match(couchdb.unsupported[operation], /_rev/, operation);
  });
});
