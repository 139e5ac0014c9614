// The arangodb adapter's pure parts, without a server: names, document and relation conversion, the AQL and its
// bind parameters, the driver configuration, and what failures tell the user.
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';
import { Database } from 'arangojs';
import { ArangoError, FetchFailedError, HttpError, ResponseTimeoutError } from 'arangojs/errors';
import { QUERY_OPTIONS } from '../../adapters/arangodb/adapter.js';
import arangodb from '../../adapters/arangodb/description.js';
import {
  ARANGO_ERRORS, connectErrorReason, createDatabaseRefusal, databaseConfig, serverUrl,
} from '../../adapters/arangodb/connection.js';
import {
  ageHistogram, boundedPath, contractDocument, databaseName, edgeDocument, isOwnCollection, markerOf, strangers,
  tempCollectionName,
} from '../../adapters/arangodb/model.js';
import * as queries from '../../adapters/arangodb/social.js';
import { ErrorCodes } from '../../core/errors.js';
import { OPERATIONS } from '../conformance/suite.js';

const OPTIONS = {
  host: '127.0.0.1', port: 8529, user: 'root', password: undefined, database: '_system',
  namespace: 'dbshootout', concurrency: 25, connectTimeoutMs: 5000,
};

function arangoError(errorNum, code, errorMessage = 'server says no') {
  return new ArangoError({ error: true, errorNum, code, errorMessage });
}

describe('arangodb names', () => {
  test('the namespace is the database name, checked against ArangoDB\'s traditional rules', () => {
    assert.equal(databaseName('dbshootout'), 'dbshootout');
    assert.equal(databaseName('dbshootout_conformance_foreign'), 'dbshootout_conformance_foreign');
    assert.equal(databaseName(`a${'b'.repeat(63)}`).length, 64);
    for (const bad of ['', '_system', '1abc', 'a b', 'a/b', 'ä', `a${'b'.repeat(64)}`, null]) {
      assert.throws(() => databaseName(bad), (error) => error.code === ErrorCodes.USAGE, JSON.stringify(bad));
    }
  });

  test('creating an adapter with an impossible namespace is a usage error', () => {
    assert.throws(() => arangodb.create({ ...OPTIONS, namespace: '_system' }),
      (error) => error.code === ErrorCodes.USAGE);
  });

  test('temporary collections are tmp_<name>, with a name ArangoDB accepts', () => {
    assert.equal(tempCollectionName('singleWrite'), 'tmp_singleWrite');
    assert.equal(tempCollectionName('conformance_singleWriteSync'), 'tmp_conformance_singleWriteSync');
    for (const bad of ['', 'a b', 'a/b', '../x', 'x'.repeat(253), undefined]) {
      assert.throws(() => tempCollectionName(bad), (error) => error.code === ErrorCodes.USAGE, JSON.stringify(bad));
    }
  });

  test('only the adapter\'s own collection names are ever dropped', () => {
    for (const own of ['profiles', 'relations', 'marker', 'tmp_singleWrite']) assert.ok(isOwnCollection(own), own);
    for (const other of ['users', 'profiles2', 'tmp', 'Profiles']) assert.ok(!isOwnCollection(other), other);
  });

  test('an owned namespace\'s strangers are every other collection, view and graph', () => {
    const own = ['profiles', 'relations', 'marker', 'tmp_w'];
    assert.deepEqual(strangers({ collections: own, views: [], graphs: [] }), []);
    assert.deepEqual(strangers({ collections: ['profiles', 'notes'], views: ['search'], graphs: ['social'] }),
      ['collection notes', 'view search', 'graph social']);
  });
});

describe('arangodb documents', () => {
  test('a stored document loses _id and _rev and keeps _key and every field exactly', () => {
    const stored = { _key: 'P1', _id: 'profiles/P1', _rev: '_hX1a2--_', AGE: 26, region: 'žilinský kraj', gender: 0 };
    assert.deepEqual(contractDocument(stored), { _key: 'P1', AGE: 26, region: 'žilinský kraj', gender: 0 });
    assert.equal(contractDocument(null), null);
  });

  test('a relation becomes an edge between profile handles', () => {
    assert.deepEqual(edgeDocument({ _from: 'P1', _to: 'P22' }), { _from: 'profiles/P1', _to: 'profiles/P22' });
  });

  test('the marker is the marker document\'s object, and nothing else counts as one', () => {
    const marker = { harness: 'db-shootout', imported: true };
    assert.deepEqual(markerOf({ _key: 'marker', marker }), marker);
    assert.deepEqual(markerOf({ _key: 'marker', marker: {} }), {});
    for (const stored of [null, {}, { marker: null }, { marker: [1] }, { marker: 'x' }]) {
      assert.equal(markerOf(stored), null, JSON.stringify(stored));
    }
  });

  test('the AGE histogram is keyed by String(AGE), a missing AGE under "null"', () => {
    assert.deepEqual(ageHistogram([[0, 3], [18, 3], [null, 1]]), { 0: 3, 18: 3, null: 1 });
  });

  test('a shortest path longer than maxDepth hops, or none, is null', () => {
    assert.deepEqual(boundedPath(['P1', 'P2', 'P4'], 2), ['P1', 'P2', 'P4']);
    assert.equal(boundedPath(['P1', 'P2', 'P4'], 1), null);
    assert.equal(boundedPath([], 15), null);
  });
});

describe('arangodb queries', () => {
  const built = {
    aggregation: queries.aggregationQuery(),
    neighbors: queries.neighborsQuery('P1'),
    neighborsData: queries.neighborsDataQuery('P1'),
    neighbors2: queries.neighbors2Query('P1'),
    neighbors2data: queries.neighbors2dataQuery('P1'),
    shortestPath: queries.shortestPathQuery('P1', 'P9'),
    warmup: queries.warmupQuery(),
    readCollection: queries.readCollectionQuery('tmp_singleWrite'),
  };

  test('every bind parameter a query names is bound, and nothing else', () => {
    for (const [name, { query, bindVars }] of Object.entries(built)) {
      // @@name binds a collection, under the key "@name".
      const named = new Set([...query.matchAll(/@(@?\w+)/g)].map(([, parameter]) => parameter));
      assert.deepEqual([...named].sort(), Object.keys(bindVars).sort(), name);
    }
  });

  test('keys are bound as profile handles', () => {
    assert.deepEqual(built.neighbors.bindVars, { start: 'profiles/P1' });
    assert.deepEqual(built.neighbors2data.bindVars, { start: 'profiles/P1' });
    assert.deepEqual(built.shortestPath.bindVars, { from: 'profiles/P1', to: 'profiles/P9' });
  });

  test('documents leave the server without _id and _rev', () => {
    for (const name of ['neighborsData', 'neighbors2data']) {
      assert.match(built[name].query, /UNSET\(\w+, '_id', '_rev'\)/, name);
    }
  });

  test('the two-hop traversal visits each vertex once, breadth first, and leaves out the start', () => {
    for (const name of ['neighbors2', 'neighbors2data']) {
      const { query } = built[name];
      assert.match(query, /1\.\.2 OUTBOUND @start relations/, name);
      assert.match(query, /order: 'bfs', uniqueVertices: 'global'/, name);
      assert.match(query, /FILTER v\._id != @start/, name);
    }
  });
});

describe('arangodb driver configuration', () => {
  test('the request pool is the run\'s concurrency, never arangojs\'s default of 3', () => {
    const config = databaseConfig({ ...OPTIONS, concurrency: 40 });
    assert.equal(config.poolSize, 40);
    assert.equal(config.maxRetries, false);
    const { factory, ...agent } = config.agentOptions;
    assert.deepEqual(agent, { connections: 40, keepAliveTimeout: 60_000 }, 'the sockets are bounded explicitly too');
    assert.equal(typeof factory, 'function', 'the adapter creates the socket pools, to close them');
    const database = new Database(config);
    try {
      // The queue that _runQueue() checks against: at most this many requests are started at once.
      assert.equal(database._connection._taskPoolSize, 40);
    } finally {
      database.close();
    }
  });

  test('host, port, database and credentials come from the options; no password is the empty one', () => {
    const config = databaseConfig({ ...OPTIONS, host: 'db.example', port: 18529, user: 'bench', database: 'other' });
    assert.equal(config.url, 'http://db.example:18529');
    assert.equal(config.databaseName, 'other');
    assert.deepEqual(config.auth, { username: 'bench', password: '' });
    assert.deepEqual(databaseConfig({ ...OPTIONS, password: 's3cret' }).auth, { username: 'root', password: 's3cret' });
  });

  test('an IPv6 host is bracketed in the URL', () => {
    assert.equal(serverUrl('::1', 8529), 'http://[::1]:8529');
    assert.equal(serverUrl('[::1]', 8529), 'http://[::1]:8529');
    assert.equal(serverUrl('localhost', 8529), 'http://localhost:8529');
  });

  test('the description declares a parallel server adapter on arangojs with the connection defaults', () => {
    assert.equal(arangodb.kind, 'server');
    assert.equal(arangodb.execution, 'parallel');
    assert.equal(arangodb.server, null);
    assert.equal(arangodb.driver, 'arangojs');
    assert.deepEqual(arangodb.connection, {
      defaults: { host: '127.0.0.1', port: 8529, user: 'root', database: '_system' },
      passwordEnv: 'BENCH_ARANGODB_PASSWORD',
    });
    // Every operation of the contract but the mixed suite's scans, which this adapter does not implement.
    assert.deepEqual([...arangodb.supports].sort(), OPERATIONS.filter((op) => op !== 'scanDocuments').sort());
    assert.equal(typeof arangodb.scanDocuments, 'undefined');
  });
});

describe('arangodb refusals', () => {
  test('a connection failure names its reason', () => {
    // The shape of a refused connection as Node's fetch and arangojs report it: FetchFailedError, then fetch's
    // TypeError, then the system error.
    const system = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8529'),
      { code: 'ECONNREFUSED', syscall: 'connect' });
    const refused = new FetchFailedError(undefined, undefined, {
      cause: Object.assign(new TypeError('fetch failed'), { cause: system }),
    });
    assert.match(connectErrorReason(OPTIONS, refused), /connection refused/);
    assert.equal(connectErrorReason(OPTIONS, new ResponseTimeoutError()), 'no answer within 5000 ms');
    assert.match(connectErrorReason(OPTIONS, arangoError(401, 401)), /without a password; set BENCH_ARANGODB_PASSWORD/);
    assert.match(connectErrorReason({ ...OPTIONS, password: 'x' }, arangoError(401, 401)),
      /with the password from BENCH_ARANGODB_PASSWORD/);
    assert.equal(connectErrorReason({ ...OPTIONS, database: 'nope' }, arangoError(ARANGO_ERRORS.databaseNotFound, 404)),
      'database "nope" does not exist');
    assert.match(connectErrorReason(OPTIONS, new HttpError({ status: 404 })), /HTTP 404 .*is this an ArangoDB server/);
  });

  test('a refusal to create the namespace database says what would allow it', () => {
    const notSystem = arangoError(ARANGO_ERRORS.useSystemDatabase, 403);
    assert.match(createDatabaseRefusal({ ...OPTIONS, database: 'pokec' }, notSystem),
      /only from _system.*"pokec".*--database _system/);
    assert.match(createDatabaseRefusal({ ...OPTIONS, user: 'bench' }, arangoError(ARANGO_ERRORS.forbidden, 403)),
      /user "bench" may not create databases/);
    assert.equal(createDatabaseRefusal(OPTIONS, arangoError(1207, 409)), null, 'other errors keep their own message');
  });
});

// A recording HTTP stub: it answers every request with canned JSON (a version, or a cursor holding `result`) and
// records what it was sent and which sockets are open. It checks what the adapter sends and what it does with an
// answer; it is not a database.
async function recordingHttpStub(result = []) {
  const requests = [];
  const sockets = new Set();
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => {
      requests.push({ method: request.method, url: request.url, body: body ? JSON.parse(body) : null });
      const answer = request.url.endsWith('/_api/cursor')
        ? { error: false, code: 201, result, hasMore: false, cached: false, extra: {} }
        : { server: 'arango', version: '3.12.4', license: 'community' };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    requests,
    get open() { return sockets.size; },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function waitFor(condition, ms, what) {
  const end = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('arangodb adapter requests, against a recording HTTP stub', () => {
  test('connect() opens --concurrency sockets; close() closes every one of them', async () => {
    const stub = await recordingHttpStub();
    try {
      const adapter = arangodb.create({ ...OPTIONS, port: stub.port, concurrency: 6 });
      await adapter.connect();
      assert.equal(stub.open, 6, 'one socket per concurrent operation, opened by connect()');
      assert.equal(stub.requests.length, 7, 'the login check, then one request per socket');
      assert.ok(stub.requests.every(({ url }) => url === '/_db/_system/_api/version'));
      await adapter.close();
      await waitFor(() => stub.open === 0, 2000, 'every socket closed after close()');
      await adapter.close();
    } finally {
      await stub.close();
    }
  });

  test('every query asks for large batches and no results cache', async () => {
    assert.deepEqual(QUERY_OPTIONS, { cache: false, batchSize: 100_000 });
    const stub = await recordingHttpStub();
    const adapter = arangodb.create({ ...OPTIONS, port: stub.port, concurrency: 2 });
    try {
      await adapter.connect();
      await adapter.neighbors('P1');
      await adapter.neighbors2data('P1');
      await adapter.readCollection('singleWrite');
      const cursors = stub.requests.filter(({ url }) => url === '/_db/dbshootout/_api/cursor');
      assert.equal(cursors.length, 3);
      for (const { method, body } of cursors) {
        assert.equal(method, 'POST');
        assert.equal(body.batchSize, 100_000, body.query);
        assert.equal(body.cache, false, body.query);
      }
    } finally {
      await adapter.close();
      await stub.close();
    }
  });

  test('readCollection reads the temporary collection in one query and strips _id and _rev as singleRead does', async () => {
    const stored = [
      { _key: 'W1', _id: 'tmp_singleWrite/W1', _rev: '_hX1a2--_', AGE: 26, region: 'žilinský kraj 𝄞' },
      { _key: 'W2', _id: 'tmp_singleWrite/W2', _rev: '_hX1a3--_', gender: 0 },
    ];
    const stub = await recordingHttpStub(stored);
    const adapter = arangodb.create({ ...OPTIONS, port: stub.port, concurrency: 2 });
    try {
      await adapter.connect();
      assert.deepEqual(await adapter.readCollection('singleWrite'), stored.map(contractDocument));
      const [cursor] = stub.requests.filter(({ url }) => url.endsWith('/_api/cursor'));
      assert.equal(cursor.body.query, 'FOR d IN @@collection RETURN d');
      assert.deepEqual(cursor.body.bindVars, { '@collection': 'tmp_singleWrite' });
    } finally {
      await adapter.close();
      await stub.close();
    }
  });
});

// A recording stub of ArangoDB's document API for one temporary collection: it records each request and answers
// as ArangoDB documents it: the key C404 is missing (404, error 1202), inserting C1 is a duplicate (409, error
// 1210), a read returns a stored document with its system attributes. It is not a database.
async function documentApiStub() {
  const requests = [];
  const stored = { _key: 'C1', _id: 'tmp_crud/C1', _rev: '_hX1a2--_', name: 'Žilina 𝄞', score: -7, constructor: '' };
  const error = (code, errorNum) => [code, { error: true, code, errorNum, errorMessage: `error ${errorNum}` }];
  const answer = (method, key, body) => {
    if (method === 'GET' && key === undefined) return [200, { server: 'arango', version: '3.12.4', license: 'community' }];
    if (key === 'C404') return error(404, 1202);
    if (method === 'POST') return body._key === 'C1' ? error(409, 1210) : [202, {}];
    if (method === 'GET') return [200, stored];
    return [method === 'DELETE' ? 200 : 202, {}];
  };
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => {
      const url = new URL(request.url, 'http://stub');
      const key = url.pathname.match(/^\/_db\/dbshootout\/_api\/document\/tmp_crud\/(.+)$/)?.[1];
      const parsed = body ? JSON.parse(body) : null;
      if (url.pathname.includes('/_api/document/')) {
        requests.push({ method: request.method, path: url.pathname, query: Object.fromEntries(url.searchParams), body: parsed });
      }
      const [status, json] = answer(request.method, key, parsed);
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(json));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    requests,
    stored,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('arangodb document operations, against a recording stub of the document API', () => {
  const collectionPath = '/_db/dbshootout/_api/document/tmp_crud';
  const doc = JSON.parse('{"_key": "C2", "name": "Košice", "__proto__": "p", "n": -9007199254740991}');
  let stub;
  let adapter;

  const withAdapter = async (work) => {
    stub = await documentApiStub();
    adapter = arangodb.create({ ...OPTIONS, port: stub.port, concurrency: 2 });
    try {
      await adapter.connect();
      await work();
    } finally {
      await adapter.close();
      await stub.close();
    }
  };

  test('each operation is one request of the document API; durable is waitForSync, the answer is silent', () => withAdapter(async () => {
    for (const durable of [false, true]) {
      stub.requests.length = 0;
      assert.equal(await adapter.insertDocument('crud', doc, { durable }), undefined);
      assert.equal(await adapter.updateDocument('crud', 'C2', doc, { durable }), undefined);
      assert.equal(await adapter.deleteDocument('crud', 'C2', { durable }), undefined);
      const query = { waitForSync: String(durable), silent: 'true' };
      assert.deepEqual(stub.requests, [
        { method: 'POST', path: collectionPath, query, body: doc },
        { method: 'PUT', path: `${collectionPath}/C2`, query, body: doc },
        { method: 'DELETE', path: `${collectionPath}/C2`, query, body: null },
      ]);
    }
    assert.equal(Object.hasOwn(stub.requests[0].body, '__proto__'), true, 'a field named __proto__ is sent');
  }));

  test('getDocument reads by key and strips _id and _rev; a missing key is null', () => withAdapter(async () => {
    assert.deepEqual(await adapter.getDocument('crud', 'C1'), contractDocument(stub.stored));
    assert.equal(await adapter.getDocument('crud', 'C404'), null);
    assert.deepEqual(stub.requests.map(({ method, path }) => [method, path]),
      [['GET', `${collectionPath}/C1`], ['GET', `${collectionPath}/C404`]]);
  }));

  test('a duplicate insert, and an update or delete of a missing key, reject with the server\'s error', () => withAdapter(async () => {
    const rejectsWith = (errorNum) => (error) => error instanceof ArangoError && error.errorNum === errorNum;
    await assert.rejects(adapter.insertDocument('crud', { _key: 'C1' }, { durable: false }), rejectsWith(1210));
    await assert.rejects(adapter.updateDocument('crud', 'C404', { _key: 'C404' }, { durable: true }), rejectsWith(1202));
    await assert.rejects(adapter.deleteDocument('crud', 'C404', { durable: false }), rejectsWith(1202));
  }));
});
