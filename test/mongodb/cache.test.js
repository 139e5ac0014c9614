// MongoDB's memory term (adapters/mongodb/README.md, Durability: the memory term): WiredTiger's cache, read back from
// serverStatus's wiredTiger.cache["maximum bytes configured"] with where its size came from. Nothing is set: no
// MongoDB server runs here, so the answers below are written from MongoDB's manual (serverStatus, getCmdLineOpts)
// and a recorded serverStatus excerpt of a mongod started with cacheSizeGB: 6 (SERVER-27903), not recorded here;
// the server case runs against BENCH_MONGODB_URL and skips with the reason without one.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import mongodb from '../../adapters/mongodb/description.js';
import { CACHE_STATISTIC, mongoCache, readTermAnswers } from '../../adapters/mongodb/terms.js';
import { parseSize } from '../../core/terms.js';
import { settleTerms } from '../../runner/terms.js';
import { serverTarget } from '../helpers/servers.js';

const STATISTIC = `wiredTiger.cache.${CACHE_STATISTIC}`;
const CONFIGURED = 'storage.wiredTiger.engineConfig.cacheSizeGB';
const WIRED_TIGER = { name: 'wiredTiger', supportsCommittedReads: true, readOnly: false, persistent: true };
// A mongod 7 started with `storage.wiredTiger.engineConfig.cacheSizeGB: 6` (the cache figures as in SERVER-27903).
const sixGigabytes = () => ({
  hello: { isWritablePrimary: true, maxWireVersion: 21, ok: 1 },
  serverStatus: {
    host: 'db1', version: '7.0.14', storageEngine: { ...WIRED_TIGER },
    wiredTiger: {
      uri: 'statistics:',
      cache: {
        'bytes currently in the cache': 5153539327, 'maximum bytes configured': 6442450944,
        'tracked dirty bytes in the cache': 747865945, 'pages read into cache': 1208356,
      },
    },
    ok: 1,
  },
  cmdLineOpts: {
    argv: ['mongod', '--config', '/etc/mongod.conf'],
    parsed: { config: '/etc/mongod.conf', storage: { dbPath: '/var/lib/mongodb', wiredTiger: { engineConfig: { cacheSizeGB: 6 } } } },
    ok: 1,
  },
  refused: {},
});

describe('mongodb cache from the server\'s answers', () => {
  test('a cache set at startup: the bytes serverStatus reports, with the setting it came from', () => {
    assert.deepEqual(mongoCache(sixGigabytes()), {
      bytes: 6442450944,
      settings: {
        [STATISTIC]: { value: '6442450944', source: 'server (serverStatus.wiredTiger.cache)' },
        [CONFIGURED]: { value: '6', source: 'server (getCmdLineOpts: set at startup)' },
      },
    });
  });

  test('WiredTiger\'s default cache: the bytes serverStatus reports, the setting unset with the default\'s rule', () => {
    const answers = sixGigabytes();
    answers.cmdLineOpts = { argv: ['mongod', '--dbpath', '/data/db'], parsed: { storage: { dbPath: '/data/db' } }, ok: 1 };
    // A 4 GB machine: 50% of (4 GB - 1 GB).
    answers.serverStatus.wiredTiger.cache[CACHE_STATISTIC] = 1610612736;
    const { bytes, settings } = mongoCache(answers);
    assert.equal(bytes, 1610612736);
    assert.deepEqual(settings[CONFIGURED], {
      value: 'not set', source: 'server default (not set at startup: WiredTiger takes the larger of 50% of (RAM - 1 GB) and 256 MB)',
    });
  });

  test('a refused serverStatus, a mongos and another engine give no bytes, each saying why', () => {
    const refused = mongoCache({ hello: { isWritablePrimary: true, ok: 1 }, refused: { serverStatus: 'Unauthorized', getCmdLineOpts: 'Unauthorized' } });
    assert.equal(refused.bytes, null);
    assert.deepEqual(refused.settings, {
      [STATISTIC]: { value: 'unreadable', source: 'server refused serverStatus: Unauthorized' },
      [CONFIGURED]: { value: 'unreadable', source: 'server refused getCmdLineOpts: Unauthorized' },
    });
    const mongos = mongoCache({ hello: { msg: 'isdbgrid', ok: 1 }, serverStatus: { process: 'mongos', ok: 1 }, cmdLineOpts: { parsed: {}, ok: 1 } });
    assert.equal(mongos.bytes, null);
    assert.deepEqual(mongos.settings[STATISTIC], {
      value: 'not reported', source: 'server (serverStatus has no wiredTiger.cache: a mongos has no storage engine; the shards\' caches are not read)',
    });
    const other = mongoCache({ hello: { isWritablePrimary: true, ok: 1 }, serverStatus: { storageEngine: { name: 'ferretdb' }, ok: 1 } });
    assert.equal(other.bytes, null);
    assert.equal(other.settings[STATISTIC].source, 'server (serverStatus has no wiredTiger.cache: its storage engine is ferretdb)');
  });

  test('readTermAnswers asks serverStatus for its wiredTiger section, where the cache is', async () => {
    const sent = [];
    const answers = sixGigabytes();
    await readTermAnswers({
      async command(command) {
        sent.push(command);
        const [name] = Object.keys(command);
        return { hello: answers.hello, serverStatus: answers.serverStatus, getCmdLineOpts: answers.cmdLineOpts }[name] ?? { ok: 1 };
      },
    });
    const serverStatus = sent.find((command) => command.serverStatus);
    assert.notEqual(serverStatus.wiredTiger, 0);
  });

  test('--cache holds the server to the cache it reports: the same size settles, another is refused naming it', async () => {
    const adapter = { terms: async () => ({ settings: {}, applied: [], problems: [], cache: mongoCache(sixGigabytes()) }) };
    const settled = await settleTerms({ description: mongodb, adapter, durability: 'relaxed', source: 'default', workloads: [], owned: false, cacheBytes: parseSize('6GB') });
    assert.equal(settled.cache.bytes, 6442450944);
    await assert.rejects(
      settleTerms({ description: mongodb, adapter, durability: 'relaxed', source: 'default', workloads: [], owned: false, cacheBytes: parseSize('512MB') }),
      /--cache 512MB: MongoDB reports a cache of 6GB \(wiredTiger\.cache\.maximum bytes configured = 6442450944 \(server \(serverStatus\.wiredTiger\.cache\)\), storage\.wiredTiger\.engineConfig\.cacheSizeGB = 6/,
    );
  });
});

const { options, skip } = serverTarget(mongodb, { namespace: 'dbshootout_mongotest_cache', concurrency: 2 });

describe('mongodb cache against a server', { skip, timeout: 60_000 }, () => {
  test('terms() reads WiredTiger\'s cache back and where its size came from', { timeout: 30_000 }, async () => {
    const adapter = mongodb.create(options);
    await adapter.connect();
    try {
      const { cache } = await adapter.terms({ durability: 'relaxed', owned: false });
      assert.deepEqual(Object.keys(cache.settings), [STATISTIC, CONFIGURED]);
      if (cache.settings[STATISTIC].source === 'server (serverStatus.wiredTiger.cache)') {
        assert.ok(Number.isSafeInteger(cache.bytes) && cache.bytes > 0, String(cache.bytes));
        assert.equal(String(cache.bytes), cache.settings[STATISTIC].value);
      } else {
        assert.equal(cache.bytes, null);
      }
    } finally {
      await adapter.close();
    }
  });
});
