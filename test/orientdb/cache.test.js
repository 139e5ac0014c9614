// OrientDB's memory term (adapters/orientdb/README.md, Durability: the memory term): the disk cache
// (storage.diskCache.bufferSize, in MB) read back through config-get; `bench run --cache` restarts the local server
// with -Dstorage.diskCache.bufferSize of that size, and `bench server start` without it gives the family's own
// (1024 MB). The server part runs against the local server of `bench server start orientdb` (or BENCH_ORIENTDB_URL:
// then only the read-back).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import orientdb from '../../adapters/orientdb/description.js';
import { CACHE_SETTING, TERM_SETTINGS, orientdbCache, orientdbTerms } from '../../adapters/orientdb/terms.js';
import { defaultCacheDir } from '../../core/paths.js';
import { settleTerms } from '../../runner/terms.js';
import orientdbServer from '../../server/orientdb.js';
import { runningServer } from '../../server/state.js';
import { spawnBench } from '../helpers/cli.js';
import { serverTarget, urlEnv } from '../helpers/servers.js';

const MIB = 2 ** 20;
const NAMESPACE = 'dbshootout_orienttest_cache';
const { options, skip } = serverTarget(orientdb, { namespace: NAMESPACE, concurrency: 2 });
// The restarts need the local server `bench server` runs, not one named by a URL.
const local = !skip && !process.env[urlEnv(orientdb)];
const SOURCE = 'server (config-get: the disk cache in MB of 2^20 bytes, from -Dstorage.diskCache.bufferSize, else sized by '
  + 'OrientDB at start from the machine\'s memory)';

test('the disk cache is read in MB of 2^20 bytes; a value config-get does not give is no size', () => {
  assert.deepEqual(orientdbCache('64'), { bytes: 64 * MIB, settings: { [CACHE_SETTING]: { value: '64 MB', source: SOURCE } } });
  assert.equal(orientdbCache('1024').bytes, 2 ** 30);
  for (const value of [undefined, null]) {
    assert.deepEqual(orientdbCache(value), { bytes: null, settings: { [CACHE_SETTING]: { value: 'not reported', source: SOURCE } } });
  }
  assert.equal(orientdbCache('-1').bytes, null);
});

test('terms() asks config-get for the disk cache with the durability settings, in one request', async () => {
  const asked = [];
  const read = async (keys) => {
    asked.push(keys);
    return Object.fromEntries(keys.map((key) => [key, key === CACHE_SETTING ? '512' : TERM_SETTINGS[key]]));
  };
  const { cache, settings } = await orientdbTerms({ read, release: '3.2.25', where: '127.0.0.1:2424' }, { durability: 'relaxed' });
  assert.deepEqual(asked, [[...Object.keys(TERM_SETTINGS), CACHE_SETTING]]);
  assert.equal(cache.bytes, 512 * MIB);
  assert.equal(settings[CACHE_SETTING], undefined, 'the cache is no setting of the durability term');
});

test('the local server\'s family declares the disk cache as what --cache sets', () => {
  assert.equal(orientdbServer.cacheSetting, CACHE_SETTING);
});

describe('orientdb cache on the server', { skip, timeout: 900_000 }, () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'bench-orientdb-cache-'));
  let db;

  before(async () => {
    db = orientdb.create(options);
    await db.connect();
  });

  after(async () => {
    await db?.close();
    await orientdb.testSupport.dropNamespace(options).catch(() => {});
    rmSync(out, { recursive: true, force: true });
  });

  test('terms() reads the disk cache back, as settings() reports it, and a run without --cache records it', { timeout: 60_000 }, async () => {
    const { cache } = await db.terms({ durability: 'relaxed', owned: false });
    const reported = (await db.settings())[CACHE_SETTING];
    assert.equal(cache.bytes, Number(reported) * MIB);
    assert.deepEqual(cache.settings[CACHE_SETTING], { value: `${reported} MB`, source: SOURCE });
    if (local) assert.equal(cache.bytes, runningServer(defaultCacheDir(), 'orientdb').cacheBytes ?? 1024 * MIB);
    const record = await settleTerms({ description: orientdb, adapter: db, durability: 'relaxed', source: 'default', workloads: [], owned: local });
    assert.deepEqual(record.cache, { requested: null, bytes: cache.bytes, settings: cache.settings });
  });

  test('bench run --cache 64MB restarts the local server with a 64 MB disk cache, runs the graph suite and records it', {
    skip: local ? false : 'needs the local server `bench server` runs', timeout: 700_000,
  }, async () => {
    const started = runningServer(defaultCacheDir(), 'orientdb');
    const run = await spawnBench(['run', '--suite', 'graph', '--db', 'orientdb', '--scale', 'tiny', '--runs', '1', '--cache', '64MB',
      '--durability', 'relaxed', '--namespace', NAMESPACE, '--out', out, '--json', '--quiet'], { timeoutMs: 600_000 });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.equal(result.complete, true);
    assert.deepEqual(Object.values(result.workloads).filter((w) => w.status !== 'passed').map((w) => w.operation), []);
    assert.equal(result.terms.cache.requested, 64 * MIB);
    assert.equal(result.terms.cache.bytes, 64 * MIB);
    assert.deepEqual(result.terms.cache.settings[CACHE_SETTING], { value: '64 MB', source: SOURCE });
    const now = runningServer(defaultCacheDir(), 'orientdb');
    assert.equal(now.cacheBytes, 64 * MIB);
    if (started.cacheBytes !== 64 * MIB) assert.notEqual(now.pid, started.pid, 'restarted with the cache');
    const status = await spawnBench(['server', 'status', 'orientdb'], { timeoutMs: 30_000 });
    assert.match(status.stdout, new RegExp(`OrientDB is running: .*\\(pid ${now.pid}, .*, cache 64MB, `));
  });

  test('bench server start without --cache starts the server with the family\'s own disk cache, 1024 MB', {
    skip: local ? false : 'needs the local server `bench server` runs', timeout: 300_000,
  }, async () => {
    const { port, release } = runningServer(defaultCacheDir(), 'orientdb');
    await db.close();
    const stop = await spawnBench(['server', 'stop', 'orientdb', '--quiet'], { timeoutMs: 120_000 });
    assert.equal(stop.code, 0, stop.stderr);
    const start = await spawnBench(['server', 'start', 'orientdb', '--port', String(port), '--version', release, '--quiet'], { timeoutMs: 180_000 });
    assert.equal(start.code, 0, start.stderr);
    assert.doesNotMatch(start.stdout, /cache \d/);
    assert.equal(runningServer(defaultCacheDir(), 'orientdb').cacheBytes, null);
    db = orientdb.create(options);
    await db.connect();
    const { cache } = await db.terms({ durability: 'relaxed', owned: true });
    assert.equal(cache.bytes, 1024 * MIB);
    assert.equal(cache.settings[CACHE_SETTING].value, '1024 MB');
  });
});
