// The memory term of a CouchDB API server (adapters/couchdb/README.md, Durability: the memory term): none, neither
// PouchDB Server nor Apache CouchDB having a data cache a setting sizes, so terms() says so with the reason and no
// bytes, and --cache refuses the run. The server case runs against the local PouchDB Server of `bench server start
// pouchdb` (or BENCH_COUCHDB_URL's) and skips with the reason without one.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import couchdb from '../../adapters/couchdb/description.js';
import { couchCache } from '../../adapters/couchdb/terms.js';
import { parseSize } from '../../core/terms.js';
import { settleTerms } from '../../runner/terms.js';
import { serverTarget } from '../helpers/servers.js';

// GET / of PouchDB Server 4.2.0 (recorded) and of Apache CouchDB 3 (from its documentation).
const POUCHDB_WELCOME = { 'express-pouchdb': 'Welcome!', version: '4.2.0', 'pouchdb-adapters': ['leveldb'], vendor: { name: 'PouchDB authors', version: '4.2.0' } };
const COUCHDB_WELCOME = { couchdb: 'Welcome', version: '3.3.3', vendor: { name: 'The Apache Software Foundation' } };

describe('couchdb cache from the server\'s answers', () => {
  test('PouchDB Server: no configurable cache, LevelDB\'s own per database named as the reason', () => {
    assert.deepEqual(couchCache({ welcome: POUCHDB_WELCOME }), {
      bytes: null,
      settings: {
        'data cache': {
          value: 'none configurable',
          source: 'PouchDB Server 4.2.0 opens each database\'s LevelDB through leveldown, whose block cache is 8 MiB per '
            + 'database (leveldown\'s default cacheSize) and which no option of PouchDB Server sizes',
        },
      },
    });
  });

  test('Apache CouchDB: no cache of its own, the operating system\'s page cache named; another server: unknown', () => {
    const couch = couchCache({ welcome: COUCHDB_WELCOME });
    assert.equal(couch.bytes, null);
    assert.match(couch.settings['data cache'].source, /^Apache CouchDB 3\.3\.3 keeps no cache of its files' data: it reads them through the operating system's page cache/);
    assert.doesNotMatch(couch.settings['data cache'].source, /PouchDB/);
    const other = couchCache({ welcome: { 'other-db': 'Welcome!', version: '1.0' } });
    assert.equal(other.bytes, null);
    assert.match(other.settings['data cache'].source, /is neither Apache CouchDB nor PouchDB Server: its cache is unknown$/);
  });
});

const { options, skip } = serverTarget(couchdb, { namespace: 'dbshootout_couch_cache', concurrency: 2 });

describe('couchdb cache against the server', { skip, timeout: 60_000 }, () => {
  test('terms() says the server has no cache to size; without --cache that is recorded, with it the run is refused', { timeout: 30_000 }, async () => {
    const adapter = couchdb.create(options);
    await adapter.connect();
    try {
      const { cache, settings } = await adapter.terms({ durability: 'relaxed', owned: false });
      assert.equal(cache.bytes, null);
      assert.equal(cache.settings['data cache'].value, 'none configurable');
      if (settings.server.value.startsWith('PouchDB Server')) assert.match(cache.settings['data cache'].source, /^PouchDB Server \d+\.\d+\.\d+ opens each database's LevelDB/);
      const recorded = await settleTerms({ description: couchdb, adapter, durability: 'relaxed', source: 'default', workloads: [], owned: false });
      assert.deepEqual(recorded.cache, { requested: null, bytes: null, settings: cache.settings });
      await assert.rejects(
        settleTerms({ description: couchdb, adapter, durability: 'relaxed', source: 'default', workloads: [], owned: false, cacheBytes: parseSize('64MB') }),
        /--cache 64MB: CouchDB's adapter cannot read its cache size back, so the term cannot be verified/,
      );
    } finally {
      await adapter.close();
    }
  });
});
