// Neo4j's memory term (adapters/neo4j/README.md, Durability: the memory term): the page cache read back with SHOW
// SETTINGS, the heap recorded beside it; `bench run --cache` restarts the local server with that page cache, and
// `bench server start` without it gives the family's own (1 GiB). The server part runs against the local server of
// `bench server start neo4j` (or BENCH_NEO4J_URL: then only the read-back).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PAGE_CACHE, neo4jCache, parseByteSize } from '../../adapters/neo4j/cache.js';
import neo4j from '../../adapters/neo4j/description.js';
import { defaultCacheDir } from '../../core/paths.js';
import { settleTerms } from '../../runner/terms.js';
import neo4jServer from '../../server/neo4j.js';
import { runningServer } from '../../server/state.js';
import { spawnBench } from '../helpers/cli.js';
import { serverTarget, urlEnv } from '../helpers/servers.js';

const MIB = 2 ** 20;
const NAMESPACE = 'dbshootout_neo4jtest_cache';
const { options, skip } = serverTarget(neo4j, { namespace: NAMESPACE, concurrency: 2 });
// The restarts need the local server `bench server` runs, not one named by a URL.
const local = !skip && !process.env[urlEnv(neo4j)];
// Neo4j 5.26.30's answers for the local server's page cache (recorded), in the shape readCache() gives them.
const SET_IN_CONF = { value: '1.00GiB', isExplicitlySet: true };

test('Neo4j\'s byte sizes, as SHOW SETTINGS gives them and neo4j.conf takes them, are binary', () => {
  assert.equal(parseByteSize('1.00GiB'), 2 ** 30);
  assert.equal(parseByteSize('64.00MiB'), 64 * MIB);
  assert.equal(parseByteSize('512.00KiB'), 512 * 1024);
  assert.equal(parseByteSize('1.17GiB'), Math.round(1.17 * 2 ** 30));
  assert.equal(parseByteSize('512m'), 512 * MIB);
  assert.equal(parseByteSize('1g'), 2 ** 30);
  assert.equal(parseByteSize('67108864'), 64 * MIB);
  for (const text of [null, '', 'auto', '1.00XiB', '-1']) assert.equal(parseByteSize(text), null, String(text));
});

test('the page cache is the cache; the heap is recorded beside it; what cannot be read is said', () => {
  assert.deepEqual(neo4jCache({ pageCache: SET_IN_CONF, heapMax: 2 ** 31 }), {
    bytes: 2 ** 30,
    settings: {
      [PAGE_CACHE]: { value: '1.00GiB', source: 'server (SHOW SETTINGS: set in neo4j.conf or on the command line)' },
      'JVM heap (max)': {
        value: '2147483648 B',
        source: 'server (dbms.queryJmx java.lang:type=Memory, HeapMemoryUsage.max: the JVM\'s -Xmx); beside the page cache, not part of it',
      },
    },
  });
  // Unset, Neo4j sizes the page cache itself at start and reports no size: no bytes, so --cache refuses the run.
  const unset = neo4jCache({ pageCache: { value: null, isExplicitlySet: false }, heapMax: { refused: 'Neo.ClientError.Security.Forbidden (denied)' } });
  assert.equal(unset.bytes, null);
  assert.equal(unset.settings[PAGE_CACHE].value, 'not set');
  assert.match(unset.settings[PAGE_CACHE].source, /not set, so Neo4j sized the page cache at start/);
  assert.deepEqual(unset.settings['JVM heap (max)'], { value: 'unreadable', source: 'server refused dbms.queryJmx: Neo.ClientError.Security.Forbidden (denied)' });
  // A release without isExplicitlySet.
  assert.equal(neo4jCache({ pageCache: { value: '512.00MiB' }, heapMax: 1 }).settings[PAGE_CACHE].source, 'server (SHOW SETTINGS)');
});

test('the local server\'s family declares the page cache as what --cache sets', () => {
  assert.equal(neo4jServer.cacheSetting, PAGE_CACHE);
});

describe('neo4j cache on the server', { skip, timeout: 900_000 }, () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'bench-neo4j-cache-'));
  let db;

  before(async () => {
    db = neo4j.create(options);
    await db.connect();
  });

  after(async () => {
    await db?.close();
    await neo4j.testSupport.dropNamespace(options).catch(() => {});
    rmSync(out, { recursive: true, force: true });
  });

  test('terms() reads the page cache back, the heap beside it, and settles a run without --cache recording it', { timeout: 60_000 }, async () => {
    const { cache } = await db.terms({ durability: 'durable', owned: false });
    assert.equal(typeof cache.bytes, 'number');
    assert.equal(cache.bytes, parseByteSize(cache.settings[PAGE_CACHE].value));
    assert.match(cache.settings[PAGE_CACHE].value, /^\d+\.\d\d[KMGT]iB$/);
    assert.match(cache.settings['JVM heap (max)'].value, /^\d+ B$/);
    if (local) assert.equal(cache.bytes, runningServer(defaultCacheDir(), 'neo4j').cacheBytes ?? 2 ** 30);
    const record = await settleTerms({ description: neo4j, adapter: db, durability: 'durable', source: 'default', workloads: [], owned: local });
    assert.deepEqual(record.cache, { requested: null, bytes: cache.bytes, settings: cache.settings });
  });

  // One workload of the graph suite: what is tested is the restart and the record, the same for any of them.
  test('bench run --cache 64MB restarts the local server with a 64 MiB page cache, runs a graph workload and records it', {
    skip: local ? false : 'needs the local server `bench server` runs', timeout: 700_000,
  }, async () => {
    const started = runningServer(defaultCacheDir(), 'neo4j');
    const run = await spawnBench(['run', '--suite', 'graph', '--db', 'neo4j', '--scale', 'tiny', '--runs', '1', '--workload', 'countFriends', '--cache', '64MB',
      '--durability', 'durable', '--namespace', NAMESPACE, '--out', out, '--json', '--quiet'], { timeoutMs: 600_000 });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.equal(result.complete, true);
    assert.deepEqual(Object.values(result.workloads).filter((w) => w.status !== 'passed').map((w) => w.operation), []);
    assert.equal(result.terms.cache.requested, 64 * MIB);
    assert.equal(result.terms.cache.bytes, 64 * MIB);
    assert.deepEqual(result.terms.cache.settings[PAGE_CACHE], { value: '64.00MiB', source: 'server (SHOW SETTINGS: set in neo4j.conf or on the command line)' });
    // The heap is the family's own, whatever the page cache.
    assert.equal(result.terms.cache.settings['JVM heap (max)'].value, `${2 ** 31} B`);
    const now = runningServer(defaultCacheDir(), 'neo4j');
    assert.equal(now.cacheBytes, 64 * MIB);
    if (started.cacheBytes !== 64 * MIB) assert.notEqual(now.pid, started.pid, 'restarted with the cache');
    const status = await spawnBench(['server', 'status', 'neo4j'], { timeoutMs: 30_000 });
    assert.match(status.stdout, new RegExp(`Neo4j is running: .*\\(pid ${now.pid}, .*, cache 64MB, `));
  });

  test('bench server start without --cache starts the server with the family\'s own page cache, 1 GiB', {
    skip: local ? false : 'needs the local server `bench server` runs', timeout: 300_000,
  }, async () => {
    const { port, release } = runningServer(defaultCacheDir(), 'neo4j');
    await db.close();
    const stop = await spawnBench(['server', 'stop', 'neo4j', '--quiet'], { timeoutMs: 120_000 });
    assert.equal(stop.code, 0, stop.stderr);
    const start = await spawnBench(['server', 'start', 'neo4j', '--port', String(port), '--version', release, '--quiet'], { timeoutMs: 180_000 });
    assert.equal(start.code, 0, start.stderr);
    assert.doesNotMatch(start.stdout, /cache \d/);
    assert.equal(runningServer(defaultCacheDir(), 'neo4j').cacheBytes, null);
    db = neo4j.create(options);
    await db.connect();
    const { cache } = await db.terms({ durability: 'durable', owned: true });
    assert.equal(cache.bytes, 2 ** 30);
    assert.equal(cache.settings[PAGE_CACHE].value, '1.00GiB');
  });
});
