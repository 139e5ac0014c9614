// The couchdb adapter against a real server: the local PouchDB Server `bench server start pouchdb` runs, or the
// one BENCH_COUCHDB_URL names (e.g. an Apache CouchDB: http://admin:pw@127.0.0.1:5984). Without either these skip
// with the reason, unless BENCH_REQUIRE lists couchdb. Then the `bench server` lifecycle of the pouchdb family,
// in a cache of its own on a free port, with the package the default cache holds.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { serverUrl } from '../../adapters/couchdb/connection.js';
import couchdb from '../../adapters/couchdb/description.js';
import { defaultCacheDir } from '../../core/paths.js';
import { ErrorCodes } from '../../core/errors.js';
import { serverFamily, serverStatus, startServer, stopServer } from '../../server/index.js';
import { isAlive, serverDir } from '../../server/state.js';
import { serverTarget } from '../helpers/servers.js';
import { freePort, listen } from '../helpers/net.js';

const required = new Set((process.env.BENCH_REQUIRE ?? '').split(',').map((id) => id.trim()).filter(Boolean));
// Upper case on purpose: CouchDB's database names are lower case.
const NAMESPACE = 'DbShootout_Couch_Test';
const { options, skip } = serverTarget(couchdb, { namespace: NAMESPACE });

async function connected(work, extra = {}) {
  const adapter = couchdb.create({ ...options, ...extra });
  await adapter.connect();
  try {
    return await work(adapter);
  } finally {
    await adapter.close();
  }
}

async function get(pathname) {
  const headers = options.password === undefined ? {}
    : { Authorization: `Basic ${Buffer.from(`${options.user}:${options.password}`).toString('base64')}` };
  const response = await fetch(`${serverUrl(options.host, options.port)}${pathname}`, { headers });
  return response.json();
}

const welcome = () => get('/');

describe('couchdb against a server', { skip }, () => {
  after(() => couchdb.testSupport.dropNamespace(options));

  test('the version names what the server says it is: PouchDB Server is never reported as CouchDB', async () => {
    const answer = await welcome();
    const version = await connected((adapter) => adapter.serverVersion());
    if (Object.hasOwn(answer, 'express-pouchdb')) {
      assert.match(version, new RegExp(`^PouchDB Server ${answer.vendor.version} .*not Apache CouchDB$`));
    } else {
      assert.equal(version, answer.version);
    }
  });

  test('the namespace is lower-cased into databases <namespace>-marker and <namespace>-tmp-<name>', async () => {
    await connected(async (adapter) => {
      await adapter.resetNamespace();
      await adapter.createTempCollection('crud_Case');
      const databases = (await get('/_all_dbs')).filter((name) => name.startsWith('dbshootout_couch_test'));
      assert.deepEqual(databases.sort(), ['dbshootout_couch_test-marker', 'dbshootout_couch_test-tmp-crud_case']);
      assert.deepEqual(await adapter.inspectNamespace(), { state: 'owned', marker: {} });
      await adapter.dropTempCollection('crud_Case');
    });
  });

  test('a revision another connection made stale: the update and the delete read the current one and succeed', async () => {
    const collection = 'couch_revisions';
    await connected(async (first) => {
      await first.createTempCollection(collection);
      await first.insertDocument(collection, { _key: 'C1', v: 'first' });
      await connected(async (second) => {
        await second.updateDocument(collection, 'C1', { _key: 'C1', v: 'second' });
      });
      // `first` still holds the insert's revision.
      await first.updateDocument(collection, 'C1', { _key: 'C1', v: 'first again', n: 0 });
      assert.deepEqual(await first.getDocument(collection, 'C1'), { _key: 'C1', v: 'first again', n: 0 });
      await connected(async (second) => {
        await second.updateDocument(collection, 'C1', { _key: 'C1', v: 'third' });
      });
      await first.deleteDocument(collection, 'C1');
      assert.equal(await first.getDocument(collection, 'C1'), null);
      assert.deepEqual(await first.readCollection(collection), []);
      await first.dropTempCollection(collection);
    });
  });

  test('a key another connection deleted: an update with the old revision rejects and creates nothing', async () => {
    const collection = 'couch_deleted';
    await connected(async (first) => {
      await first.createTempCollection(collection);
      await first.insertDocument(collection, { _key: 'C1', v: 1 });
      await connected((second) => second.deleteDocument(collection, 'C1'));
      await assert.rejects(first.updateDocument(collection, 'C1', { _key: 'C1', v: 2 }), /no document has that key/);
      await assert.rejects(first.deleteDocument(collection, 'C1'), /no document has that key/);
      assert.equal(await first.countDocuments(collection), 0);
      await first.dropTempCollection(collection);
    });
  });

  test('an operation on a collection that does not exist rejects; it is not a missing key', async () => {
    await connected(async (adapter) => {
      await assert.rejects(adapter.getDocument('couch_never_created', 'C1'), /HTTP 404/);
    });
  });

  test('a password the server refuses is E_CONNECT naming host:port, or the server has no authentication', async () => {
    const adapter = couchdb.create({ ...options, user: 'nobody', password: 'wrong' });
    try {
      await adapter.connect();
      assert.ok(Object.hasOwn(await welcome(), 'express-pouchdb'), 'only PouchDB Server (admin party) accepts anyone');
    } catch (error) {
      assert.equal(error.code, ErrorCodes.CONNECT);
      assert.match(error.message, new RegExp(`${options.host}:${options.port}.*BENCH_COUCHDB_PASSWORD`));
    } finally {
      await adapter.close();
    }
  });
});

describe('couchdb: a server that accepts connections and never answers', () => {
  test('connect() gives up within connectTimeoutMs, naming host:port', async () => {
    const server = await listen(() => {});
    const { port } = server.address();
    try {
      const adapter = couchdb.create({ ...couchdb.connection.defaults, port, password: undefined, namespace: 'n',
        concurrency: 2, connectTimeoutMs: 500 });
      const begin = performance.now();
      await assert.rejects(adapter.connect(), (error) => error.code === ErrorCodes.CONNECT
        && error.message.includes(`127.0.0.1:${port}`) && error.message.includes('no answer within 500 ms'));
      assert.ok(performance.now() - begin < 5000);
      await adapter.close();
    } finally {
      server.close();
      server.closeAllConnections?.();
    }
  });
});

const pouchdb = serverFamily('pouchdb');
const installed = await pouchdb.version(serverDir(defaultCacheDir(), 'pouchdb'));
if (!installed && required.has('couchdb')) throw new Error('BENCH_REQUIRE lists couchdb, but PouchDB Server is not installed');

describe('bench server: the pouchdb family', { skip: installed ? false : 'PouchDB Server is not installed (npx bench server install pouchdb)' }, () => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'bench-server-pouchdb-'));
  after(async () => {
    await stopServer(pouchdb, { cacheDir }).catch(() => {});
    rmSync(cacheDir, { recursive: true, force: true });
  });

  test('starts on 127.0.0.1 with its data under the cache, answers as PouchDB Server, stops cleanly', async () => {
    // The package the default cache holds, rather than another install of its 300 packages.
    const dir = serverDir(cacheDir, 'pouchdb');
    mkdirSync(dir, { recursive: true });
    symlinkSync(path.join(serverDir(defaultCacheDir(), 'pouchdb'), 'node_modules'), path.join(dir, 'node_modules'));
    const port = await freePort();
    const state = await startServer(pouchdb, { cacheDir, port });
    assert.equal(state.host, '127.0.0.1');
    assert.equal(state.port, port);
    assert.equal(state.version, installed);
    assert.ok(state.dataDir.startsWith(cacheDir), `data under the cache: ${state.dataDir}`);
    const answer = await (await fetch(`http://127.0.0.1:${port}/`)).json();
    assert.ok(Object.hasOwn(answer, 'express-pouchdb'), JSON.stringify(answer));
    assert.equal((await startServer(pouchdb, { cacheDir, port })).alreadyRunning, true);
    assert.equal(serverStatus(pouchdb, { cacheDir }).pid, state.pid);

    const stopped = await stopServer(pouchdb, { cacheDir });
    assert.equal(stopped.killed, false, 'it stopped on SIGTERM');
    assert.equal(isAlive(state.pid), false);
    assert.equal(serverStatus(pouchdb, { cacheDir }), null);
  });

  test('refuses a port that is already taken', async () => {
    const taken = await listen(() => {});
    try {
      await assert.rejects(startServer(pouchdb, { cacheDir, port: taken.address().port }),
        (error) => error.code === ErrorCodes.USAGE && /already in use/.test(error.message));
    } finally {
      taken.close();
    }
  });
});
