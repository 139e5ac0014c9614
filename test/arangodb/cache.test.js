// ArangoDB's memory term (adapters/arangodb/README.md, Durability: the memory term): RocksDB's block cache, read back
// from GET /_admin/options (--rocksdb.block-cache-size) where the server lets the user read it, with --cache.size
// recorded beside it. Nothing is set: no ArangoDB server runs here, so the answers are shaped after ArangoDB's
// documented HTTP API and served by a stub, not recorded; the server case runs against BENCH_ARANGODB_URL and skips
// with the reason without one.
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';
import arangodb from '../../adapters/arangodb/description.js';
import { CACHE_OPTION, arangoCache } from '../../adapters/arangodb/terms.js';
import { parseSize } from '../../core/terms.js';
import { settleTerms } from '../../runner/terms.js';
import { serverTarget } from '../helpers/servers.js';

const FROM_OPTIONS = 'server (GET /_admin/options: its startup options)';
const CACHE_SIZE_NOTE = '; ArangoDB\'s in-memory cache of edge and document lookups, beside the block cache and not counted in the term';
// Startup options of an arangod 3.12 started with --rocksdb.block-cache-size 536870912 (the other values its defaults
// on a 4 GiB machine, as /_admin/options gives them: numbers for sizes).
const OPTIONS = { 'rocksdb.block-cache-size': 536870912, 'cache.size': 536870912, 'rocksdb.sync-interval': 100, 'database.wait-for-sync': false };

describe('arangodb cache from the server\'s answers', () => {
  test('the block cache is the cache; cache.size is recorded beside it, not counted', () => {
    assert.deepEqual(arangoCache({ options: { value: OPTIONS } }), {
      bytes: 536870912,
      settings: {
        [CACHE_OPTION]: { value: '536870912', source: FROM_OPTIONS },
        'cache.size': { value: '536870912', source: `${FROM_OPTIONS}${CACHE_SIZE_NOTE}` },
      },
    });
  });

  test('options the user may not read, or an option not reported, give no bytes and say why', () => {
    const refused = arangoCache({ options: { refused: 'HTTP 403 (forbidden)' } });
    assert.equal(refused.bytes, null);
    for (const name of [CACHE_OPTION, 'cache.size']) {
      assert.deepEqual(refused.settings[name], { value: 'unreadable', source: 'server refused GET /_admin/options: HTTP 403 (forbidden)' });
    }
    const absent = arangoCache({ options: { value: { 'rocksdb.sync-interval': 100 } } });
    assert.equal(absent.bytes, null);
    assert.deepEqual(absent.settings[CACHE_OPTION], { value: 'not reported', source: 'server (GET /_admin/options names no such option)' });
  });

  test('--cache holds the server to its block cache: the same size settles, another is refused naming it', async () => {
    const adapter = { terms: async () => ({ settings: {}, applied: [], problems: [], cache: arangoCache({ options: { value: OPTIONS } }) }) };
    const settled = await settleTerms({ description: arangodb, adapter, durability: 'relaxed', source: 'default', workloads: [], owned: false, cacheBytes: parseSize('512MB') });
    assert.equal(settled.cache.bytes, 536870912);
    await assert.rejects(
      settleTerms({ description: arangodb, adapter, durability: 'relaxed', source: 'default', workloads: [], owned: false, cacheBytes: parseSize('64MB') }),
      /--cache 64MB: ArangoDB reports a cache of 512MB \(rocksdb\.block-cache-size = 536870912 \(server \(GET \/_admin\/options: its startup options\)\)/,
    );
    const unreadable = { terms: async () => ({ settings: {}, applied: [], problems: [], cache: arangoCache({ options: { refused: 'HTTP 403 (forbidden)' } }) }) };
    await assert.rejects(
      settleTerms({ description: arangodb, adapter: unreadable, durability: 'relaxed', source: 'default', workloads: [], owned: false, cacheBytes: parseSize('64MB') }),
      /--cache 64MB: ArangoDB's adapter cannot read its cache size back/,
    );
  });
});

// The parts of ArangoDB's HTTP API that connect() and terms() use: the version, the engine, the startup options (or
// a 403) and a namespace's database that does not exist yet. It is not a database.
async function optionsStub({ optionsAllowed }) {
  const json = (response, status, body) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const { pathname } = new URL(request.url, 'http://stub');
      if (pathname === '/_db/_system/_api/version') return json(response, 200, { server: 'arango', version: '3.12.4', license: 'community' });
      if (pathname === '/_db/_system/_api/engine') return json(response, 200, { name: 'rocksdb' });
      if (pathname === '/_db/_system/_admin/options') {
        return optionsAllowed ? json(response, 200, OPTIONS) : json(response, 403, { error: true, code: 403, errorNum: 11, errorMessage: 'forbidden' });
      }
      return json(response, 404, { error: true, code: 404, errorNum: 1228, errorMessage: 'database not found' });
    });
  });
  await new Promise((resolve) => { server.listen(0, '127.0.0.1', resolve); });
  return { port: server.address().port, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }) };
}

describe('arangodb cache, against a stub of the HTTP API', { timeout: 30_000 }, () => {
  for (const optionsAllowed of [true, false]) {
    test(`terms() resolves the block cache ${optionsAllowed ? 'the options give' : 'as unreadable when the options are refused'}`, { timeout: 10_000 }, async () => {
      const stub = await optionsStub({ optionsAllowed });
      const adapter = arangodb.create({
        host: '127.0.0.1', port: stub.port, user: 'root', password: undefined, database: '_system', namespace: 'dbshootout',
        concurrency: 1, connectTimeoutMs: 5000,
      });
      try {
        await adapter.connect();
        const { cache } = await adapter.terms({ durability: 'relaxed', owned: false });
        assert.equal(cache.bytes, optionsAllowed ? 536870912 : null);
        assert.equal(cache.settings[CACHE_OPTION].value, optionsAllowed ? '536870912' : 'unreadable');
      } finally {
        await adapter.close();
        await stub.close();
      }
    });
  }
});

const { options, skip } = serverTarget(arangodb, { namespace: 'dbshootout_arangotest_cache', concurrency: 2 });

describe('arangodb cache against a server', { skip, timeout: 60_000 }, () => {
  test('terms() reads the block cache back where the options are readable, and says so where not', { timeout: 30_000 }, async () => {
    const adapter = arangodb.create(options);
    await adapter.connect();
    try {
      const { cache } = await adapter.terms({ durability: 'relaxed', owned: false });
      assert.deepEqual(Object.keys(cache.settings), [CACHE_OPTION, 'cache.size']);
      if (cache.settings[CACHE_OPTION].value === 'unreadable') assert.equal(cache.bytes, null);
      else assert.equal(String(cache.bytes), cache.settings[CACHE_OPTION].value);
    } finally {
      await adapter.close();
    }
  });
});
