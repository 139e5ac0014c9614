// The durability terms on ArangoDB (adapters/arangodb/terms.js): what terms() makes of the server's answers, what
// it asks for and what the timed writes send, against a recording HTTP stub (canned answers in the shapes
// ArangoDB's HTTP API documents, not recorded from a server: none can be installed on this project's machines),
// and against a real server when BENCH_ARANGODB_URL names one (skipped with the reason otherwise).
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';
import arangodb from '../../adapters/arangodb/description.js';
import { TERM_OPTIONS, arangoTerms, timedWriteCollection } from '../../adapters/arangodb/terms.js';
import { termObstacle } from '../../core/terms.js';
import { WORKLOADS as SOCIAL } from '../../workloads/social/workloads.js';
import { serverTarget } from '../helpers/servers.js';

const WHERE = { where: 'db1:8529', database: 'dbshootout' };
const ENGINE = { value: { name: 'rocksdb', supports: { dfdb: false, indexes: ['primary', 'edge', 'persistent'] } } };
const OPTIONS = { value: { 'rocksdb.sync-interval': 100, 'database.wait-for-sync': false, 'server.maximal-threads': 64 } };

describe('arangodb durability terms from the server\'s answers', () => {
  test('the description declares both terms per request, by waitForSync', () => {
    assert.equal(arangodb.terms.durability.scope, 'session');
    assert.match(arangodb.terms.durability.relaxed.how, /^waitForSync=false on every timed write/);
    assert.match(arangodb.terms.durability.durable.how, /^waitForSync=true on every timed write/);
    const singleWriteSync = SOCIAL.find((workload) => workload.name === 'singleWriteSync');
    assert.equal(termObstacle(arangodb, singleWriteSync, 'relaxed'), null, 'durable writes in a relaxed run');
  });

  test('the timed writes go to the temporary and the graph collections only', () => {
    assert.deepEqual(['tmp_singleWrite', 'g_edges', 'profiles', 'relations', 'marker', 'q_values10k'].filter(timedWriteCollection),
      ['tmp_singleWrite', 'g_edges']);
    assert.deepEqual(TERM_OPTIONS, ['rocksdb.sync-interval', 'database.wait-for-sync']);
  });

  test('a RocksDB server whose collections sync only on request gives both terms; each setting says where it came from', () => {
    const collections = [{ name: 'g_edges', waitForSync: false }, { name: 'tmp_singleWrite', waitForSync: false }];
    for (const durability of ['relaxed', 'durable']) {
      const { settings, problems } = arangoTerms({ engine: ENGINE, options: OPTIONS, collections }, { durability, ...WHERE });
      assert.deepEqual(problems, []);
      assert.deepEqual(settings, {
        'storage engine': { value: 'rocksdb', source: 'server (GET /_api/engine)' },
        'rocksdb.sync-interval': { value: '100', source: 'server (GET /_admin/options: its startup options)' },
        'database.wait-for-sync': { value: 'false', source: 'server (GET /_admin/options: its startup options)' },
        'waitForSync (collections of the timed writes)': { value: 'false on g_edges, tmp_singleWrite', source: 'server (GET /_api/collection/<name>/properties)' },
        'waitForSync (collections the adapter creates)': { value: 'false', source: 'set by the adapter when it creates a collection' },
        'waitForSync (timed writes)': { value: String(durability === 'durable'), source: 'set by the adapter on each write' },
      });
    }
  });

  test('a collection with waitForSync true contradicts the relaxed term only, named with how to change it', () => {
    const collections = [{ name: 'g_edges', waitForSync: true }, { name: 'tmp_crud', waitForSync: false }];
    const relaxed = arangoTerms({ engine: ENGINE, options: OPTIONS, collections }, { durability: 'relaxed', ...WHERE });
    assert.equal(relaxed.settings['waitForSync (collections of the timed writes)'].value, 'true on g_edges; false on tmp_crud');
    assert.deepEqual(relaxed.problems, ['collection g_edges of database "dbshootout" on db1:8529 has waitForSync true '
      + '(its properties): every write to it is fsynced whatever the request asks, so relaxed writes need false '
      + '(PUT /_api/collection/g_edges/properties with {"waitForSync": false}, or drop it for the harness to create anew)']);
    assert.deepEqual(arangoTerms({ engine: ENGINE, options: OPTIONS, collections }, { durability: 'durable', ...WHERE }).problems, []);
  });

  test('options the user may not read are unreadable with the reason; no namespace yet is no collection', () => {
    const refused = { refused: 'HTTP 403 (forbidden)' };
    const { settings, problems } = arangoTerms({ engine: ENGINE, options: refused, collections: null }, { durability: 'relaxed', ...WHERE });
    assert.deepEqual(problems, []);
    for (const name of TERM_OPTIONS) {
      assert.deepEqual(settings[name], { value: 'unreadable', source: 'server refused GET /_admin/options: HTTP 403 (forbidden)' });
    }
    assert.equal(settings['waitForSync (collections of the timed writes)'].value, 'none yet (database "dbshootout" does not exist)');
    const empty = arangoTerms({ engine: { refused: 'HTTP 401 (not authorized)' }, options: { value: {} }, collections: [] }, { durability: 'durable', ...WHERE });
    assert.equal(empty.settings['waitForSync (collections of the timed writes)'].value, 'none yet in database "dbshootout"');
    assert.deepEqual(empty.settings['storage engine'], { value: 'unreadable', source: 'server refused GET /_api/engine: HTTP 401 (not authorized)' });
    assert.deepEqual(empty.settings['rocksdb.sync-interval'], { value: 'not reported', source: 'server (GET /_admin/options names no such option)' });
  });
});

// A recording stub of the parts of ArangoDB's HTTP API that terms() and the single writes use: the version, the
// engine, the startup options (or a 403), the namespace's collections and their properties (or a 404 for a database
// that does not exist), and the document API. It records every request; it is not a database.
async function termsStub({ optionsAllowed = true, database = true, waitForSync = { g_edges: false, tmp_singleWrite: true } } = {}) {
  const requests = [];
  const json = (response, status, body) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const error = (response, code, errorNum, errorMessage) => json(response, code, { error: true, code, errorNum, errorMessage });
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const url = new URL(request.url, 'http://stub');
      requests.push({ method: request.method, path: url.pathname, query: Object.fromEntries(url.searchParams) });
      const { pathname } = url;
      if (pathname === '/_db/_system/_api/version') return json(response, 200, { server: 'arango', version: '3.12.4', license: 'community' });
      if (pathname === '/_db/_system/_api/engine') return json(response, 200, ENGINE.value);
      if (pathname === '/_db/_system/_admin/options') {
        return optionsAllowed ? json(response, 200, OPTIONS.value) : error(response, 403, 11, 'forbidden');
      }
      if (pathname.startsWith('/_db/dbshootout/') && !database) return error(response, 404, 1228, 'database not found');
      if (pathname === '/_db/dbshootout/_api/collection') {
        const names = ['profiles', 'relations', 'marker', ...Object.keys(waitForSync)];
        return json(response, 200, { error: false, code: 200, result: names.map((name, i) => ({ id: String(i), name, isSystem: false, status: 3, type: 2 })) });
      }
      const properties = pathname.match(/^\/_db\/dbshootout\/_api\/collection\/([^/]+)\/properties$/);
      if (properties) return json(response, 200, { name: properties[1], waitForSync: waitForSync[properties[1]] ?? false, type: 2 });
      if (pathname.startsWith('/_db/dbshootout/_api/document/')) return json(response, 202, {});
      return error(response, 404, 404, `no stub for ${pathname}`);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

async function withAdapter(stubOptions, work) {
  const stub = await termsStub(stubOptions);
  const adapter = arangodb.create({
    host: '127.0.0.1', port: stub.port, user: 'root', password: undefined, database: '_system', namespace: 'dbshootout',
    concurrency: 1, connectTimeoutMs: 5000,
  });
  try {
    await adapter.connect();
    const before = stub.requests.length;
    await work(adapter, () => stub.requests.slice(before));
  } finally {
    await adapter.close();
    await stub.close();
  }
}

describe('arangodb durability terms, against a recording stub of the HTTP API', { timeout: 30_000 }, () => {
  test('terms() reads the engine, the options and the properties of the timed writes\' collections only', { timeout: 10_000 }, async () => {
    await withAdapter({}, async (adapter, sent) => {
      const { settings, applied, problems } = await adapter.terms({ durability: 'relaxed', owned: false });
      assert.deepEqual(applied, []);
      assert.deepEqual(sent().map(({ path }) => path), [
        '/_db/_system/_api/engine', '/_db/_system/_admin/options', '/_db/dbshootout/_api/collection',
        '/_db/dbshootout/_api/collection/g_edges/properties', '/_db/dbshootout/_api/collection/tmp_singleWrite/properties',
      ]);
      assert.equal(settings['waitForSync (collections of the timed writes)'].value, 'true on tmp_singleWrite; false on g_edges');
      assert.equal(settings['rocksdb.sync-interval'].value, '100');
      assert.equal(problems.length, 1);
      assert.match(problems[0], new RegExp(`^collection tmp_singleWrite of database "dbshootout" on 127\\.0\\.0\\.1:\\d+ has waitForSync true`));
      assert.deepEqual((await adapter.terms({ durability: 'durable', owned: false })).problems, []);
    });
  });

  test('a refused /_admin/options and a namespace not yet created are no error', { timeout: 10_000 }, async () => {
    await withAdapter({ optionsAllowed: false, database: false }, async (adapter) => {
      const { settings, problems } = await adapter.terms({ durability: 'relaxed', owned: false });
      assert.deepEqual(problems, []);
      assert.equal(settings['rocksdb.sync-interval'].value, 'unreadable');
      assert.match(settings['rocksdb.sync-interval'].source, /^server refused GET \/_admin\/options: HTTP 403/);
      assert.equal(settings['waitForSync (collections of the timed writes)'].value, 'none yet (database "dbshootout" does not exist)');
    });
  });

  test('singleWrite sends waitForSync=false, singleWriteSync waitForSync=true', { timeout: 10_000 }, async () => {
    await withAdapter({}, async (adapter, sent) => {
      await adapter.singleWrite('singleWrite', { _key: 'W1', AGE: 3 });
      await adapter.singleWriteSync('singleWrite', { _key: 'W2', AGE: 4 });
      assert.deepEqual(sent().map(({ method, path, query }) => [method, path, query.waitForSync]), [
        ['POST', '/_db/dbshootout/_api/document/tmp_singleWrite', 'false'],
        ['POST', '/_db/dbshootout/_api/document/tmp_singleWrite', 'true'],
      ]);
    });
  });
});

const { options, skip } = serverTarget(arangodb, { namespace: 'dbshootout_arangotest_terms', concurrency: 2 });

describe('arangodb durability terms against a server', { skip, timeout: 60_000 }, () => {
  test('terms() reads back the engine and the collections\' waitForSync; a fresh namespace contradicts neither term', { timeout: 30_000 }, async () => {
    const adapter = arangodb.create(options);
    await adapter.connect();
    try {
      await adapter.resetNamespace();
      await adapter.createTempCollection('terms');
      for (const durability of ['relaxed', 'durable']) {
        const { settings, applied, problems } = await adapter.terms({ durability, owned: false });
        assert.deepEqual(applied, []);
        assert.deepEqual(problems, [], durability);
        assert.equal(settings['storage engine'].value, 'rocksdb');
        assert.equal(settings['waitForSync (collections of the timed writes)'].value, 'false on tmp_terms');
        assert.equal(settings['waitForSync (timed writes)'].value, String(durability === 'durable'));
      }
      await adapter.dropTempCollection('terms');
    } finally {
      await adapter.close();
      await arangodb.testSupport.dropNamespace(options);
    }
  });
});
